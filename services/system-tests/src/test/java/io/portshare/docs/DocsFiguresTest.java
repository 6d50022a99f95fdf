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
import org.junit.jupiter.api.Test;

/**
 * The docs' figures are their raw files' ({@link Figures}): every page, its figures written again
 * from the raw files, is the page as committed. And README's headline, the figures a reader quotes,
 * has no number outside a figure's markers beyond its first column, which says what was measured.
 * After a new run: {@code deploy/bench.sh figures} rewrites them.
 */
class DocsFiguresTest {

  private static final Path ROOT = Repository.root();

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
}
