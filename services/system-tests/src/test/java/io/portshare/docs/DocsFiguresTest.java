package io.portshare.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.portshare.kit.Figures;
import io.portshare.kit.Repository;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The docs' figures are their raw files' ({@link Figures}): every page, its figures written again
 * from the raw files, is the page as committed. README's headline, the figures a reader quotes,
 * has no number outside a figure's markers beyond its first column, which says what was measured;
 * and the tables of the pages that quote measurements type no measured figure by hand
 * ({@link TypedFigures}). After a new run: {@code deploy/bench.sh figures} rewrites them.
 */
class DocsFiguresTest {

  private static final Path ROOT = Repository.root();

  /** Phrases of a page that look like figures and are constants of the code, each pinned by a test. */
  private static final Map<String, List<String>> CONSTANTS = Map.of(
      // EchoServerTest.afterARejectedFrameThePeerMayWriteOnPastTheFinOnlyWhereTheServerLingers
      "rpc-server/README.md", List.of("a 10 ms tick"));

  @Test
  void everyFigureIsItsRawFilesAsCommitted() throws IOException {
    Figures figures = new Figures(ROOT);
    List<String> stale = new ArrayList<>();
    for (Path page : figures.pages()) {
      String text = Files.readString(page, StandardCharsets.UTF_8);
      if (!figures.render(text).equals(text)) {
        stale.add(ROOT.relativize(page).toString());
      }
    }
    assertThat(stale).as("pages whose figures differ from their raw files (run deploy/bench.sh figures)").isEmpty();
  }

  @Test
  void theHeadlineHasNoNumberTypedByHand() throws IOException {
    List<String> typed = new ArrayList<>();
    boolean inHeadline = false;
    for (String line : Files.readAllLines(ROOT.resolve("README.md"), StandardCharsets.UTF_8)) {
      if (line.startsWith("## ")) {
        inHeadline = line.equals("## Headline figures");
        continue;
      }
      if (!inHeadline || !line.startsWith("|") || line.startsWith("|---")) {
        continue;
      }
      String[] cells = line.replace("\\|", "").split("\\|");
      for (int c = 2; c < cells.length; c++) {
        String bare = cells[c].replaceAll("<!--fig [^>]*-->.*?<!--/fig-->", "")
            .replaceAll("\\[[^\\]]*\\]\\([^)]*\\)", "").replaceAll("`[^`]*`", "");
        if (bare.matches(".*\\d.*")) {
          typed.add(cells[c].strip());
        }
      }
    }
    assertThat(typed).as("headline cells with a number outside <!--fig ...--> markers").isEmpty();
  }

  @Test
  void theTablesOfMeasurementsHaveNoFigureTypedByHand() throws IOException {
    List<String> typed = new ArrayList<>();
    for (Path page : measuredPages()) {
      String rel = ROOT.relativize(page).toString().replace('\\', '/');
      for (String cell : TypedFigures.in(Files.readString(page, StandardCharsets.UTF_8),
          CONSTANTS.getOrDefault(rel, List.of()))) {
        typed.add(rel + ": " + cell);
      }
    }
    assertThat(typed).as("table cells with a measured figure outside <!--fig ...--> markers").isEmpty();
  }

  /** README, the pages that quote measurements, every service's README and every bench report's. */
  private static List<Path> measuredPages() throws IOException {
    List<Path> pages = new ArrayList<>(List.of(ROOT.resolve("README.md"), ROOT.resolve("docs/benchmark.md"),
        ROOT.resolve("docs/modes.md"), ROOT.resolve("static-server/README.md"), ROOT.resolve("rpc-server/README.md")));
    try (Stream<Path> services = Files.list(ROOT.resolve("services"))) {
      services.map(s -> s.resolve("README.md")).filter(Files::isRegularFile).sorted().forEach(pages::add);
    }
    try (Stream<Path> reports = Files.walk(ROOT.resolve("bench/report"))) {
      reports.filter(p -> p.getFileName().toString().equals("README.md")).sorted().forEach(pages::add);
    }
    return pages;
  }
}
