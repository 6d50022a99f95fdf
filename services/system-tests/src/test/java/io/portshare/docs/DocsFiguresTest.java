package io.portshare.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.portshare.kit.Figures;
import io.portshare.kit.FiguresCheck;
import io.portshare.kit.Repository;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The docs' figures are their raw files' ({@link Figures}, checked by {@link FiguresCheck} as
 * {@code deploy/bench.sh figures --check} does): every page, its figures written again from the raw
 * files, is the page as committed; no page types a measured figure outside a marker, in prose or in
 * tables; every raw file a marker names has a header with its command, a commit this repository has
 * and the load at start, and a page quoting one edited by hand shows its "edited by hand:" line.
 * README's headline has no number outside a marker beyond its first column, and no table a number
 * beside its markers in a column of figures ({@link TypedFigures}). After a new run:
 * {@code deploy/bench.sh figures} rewrites them. The checks' own cases, each planted in a
 * repository of its own, are in the kit's FiguresCheckTest.
 */
class DocsFiguresTest {

  private static final Path ROOT = Repository.root();
  private static final Pattern SOURCE = Pattern.compile("<!--(?:fig|excerpt) (.+?) ; ");

  private final FiguresCheck check = new FiguresCheck(new Figures(ROOT));

  @Test
  void everyFigureIsItsRawFilesAsCommitted() throws IOException {
    assertThat(check.stalePages()).as("pages whose figures differ from their raw files (run deploy/bench.sh figures)")
        .isEmpty();
  }

  @Test
  void noPageTypesAMeasuredFigureOutsideAMarker() throws IOException {
    assertThat(check.proseFigures()).as("measured figures typed by hand (docs/benchmark.md, Figures on the pages)")
        .isEmpty();
  }

  @Test
  void everyRawFileAMarkerNamesHasItsCommandAnExistingCommitAndItsLoad() throws IOException {
    assertThat(check.rawHeaders()).as("raw files whose header lacks what the tool that measured them writes")
        .isEmpty();
  }

  @Test
  void aRawFileEditedByHandIsShownSoWhereItIsQuoted() throws IOException {
    assertThat(check.handEditsNotShown()).isEmpty();
  }

  @Test
  void theHeadlineAndTheServicesCurrentFiguresSayHowOldEachRawFileTheyQuoteIs() throws IOException {
    List<String> ageless = new ArrayList<>();
    for (String[] section : new String[][] {{"README.md", "## Headline figures"},
        {"static-server/README.md", "## Current figures"}, {"rpc-server/README.md", "## Current figures"}}) {
      String text = Files.readString(ROOT.resolve(section[0]), StandardCharsets.UTF_8);
      int start = text.indexOf("\n" + section[1] + "\n");
      assertThat(start).as("%s has a section %s", section[0], section[1]).isNotNegative();
      int end = text.indexOf("\n## ", start + 1);
      String body = text.substring(start, end < 0 ? text.length() : end);
      Matcher m = SOURCE.matcher(body);
      while (m.find()) {
        String raw = m.group(1);
        if (!body.contains("<!--fig " + raw + " ; header ; age-->") && !ageless.contains(section[0] + ": " + raw)) {
          ageless.add(section[0] + ": " + raw);
        }
      }
    }
    assertThat(ageless).as("raw files quoted without a <!--fig FILE ; header ; age--> marker beside them").isEmpty();
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
  void noColumnOfFiguresHasANumberTypedBesideItsMarkers() throws IOException {
    List<String> typed = new ArrayList<>();
    for (Path page : new Figures(ROOT).pages()) {
      String rel = ROOT.relativize(page).toString().replace('\\', '/');
      for (String cell : TypedFigures.in(Files.readString(page, StandardCharsets.UTF_8))) {
        typed.add(rel + ": " + cell);
      }
    }
    assertThat(typed).as("cells of a column of figures with a number outside <!--fig ...--> markers").isEmpty();
  }
}
