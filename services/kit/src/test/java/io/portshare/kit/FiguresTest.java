package io.portshare.kit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Figures written from a raw file in the ledger's format (cut from a real one). */
class FiguresTest {

  static final String RAW = """
      Command: deploy/bench.sh ledger --rounds 5
      portshare ledger: the cost of one connection
        date: 2026-12-03T08:25:10
        load average at start: 0.60 1.51 1.43
        warm-up 1: c-echo 64B|1x: 25.6 26.6 25.2

      RPC echo, one worker each side, per transaction (= connection at 1x): server CPU µs per operation, median of 5 rounds (min-max)
                                    64B|1x      64B|1024x
      c-echo              29.1 (28.6-32.6)  6.7 (5.7-7.3)
      rpc-server          33.6 (32.2-38.8)  7.7 (7.5-8.6)

      RPC echo: each row over c-echo: server CPU per operation over the floor's, round by round, median of 5 rounds (min-max)
                                    64B|1x         64B|1024x
      rpc-server          1.14 (1.11-1.19)  1.20 (1.05-1.33)

      static files, one worker each side, per request (= connection on close): server CPU µs per operation
                                 1k.bin close  1k.bin keep-alive
      nginx                  38.0 (37.0-41.9)   18.8 (15.9-19.2)
      """;

  @TempDir
  Path root;
  Figures figures;

  @BeforeEach
  void write() throws Exception {
    Files.createDirectories(root.resolve("r"));
    Files.writeString(root.resolve("r/table.txt"), RAW);
    figures = new Figures(root);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '#', value = {
      "r/table.txt ; RPC echo: each row over c-echo ; rpc-server ; 64B\\|1x ; x#1.14x",
      "r/table.txt ; RPC echo: each row over c-echo ; rpc-server ; 64B\\|1024x ; range#1.05-1.33",
      "r/table.txt ; RPC echo, one worker ; c-echo ; 64B\\|1x ; median#29.1",
      "r/table.txt ; RPC echo, one worker ; rpc-server ; 64B\\|1x#33.6 (32.2-38.8)",
      "r/table.txt ; static files ; nginx ; 1k.bin keep-alive ; median#18.8",
      "r/table.txt ; header ; load average at start#0.60 1.51 1.43",
      "r/table.txt ; header ; date#2026-12-03T08:25:10"})
  void aFigureIsTheCellItsMarkerNames(String source, String value) {
    String page = "| a | <!--fig " + source + "-->typed by hand<!--/fig--> |\n";
    assertThat(figures.render(page)).isEqualTo("| a | <!--fig " + source + "-->" + value + "<!--/fig--> |\n");
  }

  @Test
  void aPageWithoutMarkersAndOneUpToDateAreLeftAsTheyAre() {
    String page = "# title\n\n1.14x typed, no marker\n<!--fig r/table.txt ; static files ; nginx ; 1k.bin close ;"
        + " median-->38.0<!--/fig-->\n";
    assertThat(figures.render(page)).isEqualTo(page);
  }

  @Test
  void anExcerptIsTheSectionAsTheFileHasIt() {
    String page = "before\n<!--excerpt r/table.txt ; RPC echo: each row-->\n```\nold\n```\n<!--/excerpt-->\nafter\n";
    assertThat(figures.render(page)).isEqualTo("""
        before
        <!--excerpt r/table.txt ; RPC echo: each row-->
        ```
        RPC echo: each row over c-echo: server CPU per operation over the floor's, round by round, median of 5 rounds (min-max)
                                      64B|1x         64B|1024x
        rpc-server          1.14 (1.11-1.19)  1.20 (1.05-1.33)
        ```
        <!--/excerpt-->
        after
        """);
  }

  @ParameterizedTest(name = "{1}")
  @CsvSource(delimiter = '#', value = {
      "r/table.txt ; RPC echo: each ; netty-echo ; 64B\\|1x#no row \"netty-echo\"",
      "r/table.txt ; RPC echo: each ; rpc-server ; 1024B\\|1x#no column \"1024B|1x\"",
      "r/table.txt ; TCP echo ; rpc-server ; 64B\\|1x#no section titled \"TCP echo…\"",
      "r/table.txt ; header ; commit#has no header line \"commit:\"",
      "r/none.txt ; header ; date#cannot read the raw file r/none.txt",
      "../outside.txt ; header ; date#a raw file outside the repository",
      "r/table.txt ; static files ; nginx ; 1k.bin close ; percent#unknown format \"percent\"",
      "r/table.txt ; static files ; nginx#a figure is PATH ; SECTION ; ROW ; COLUMN"})
  void aFigureWhoseSourceIsGoneFailsSayingWhat(String source, String message) {
    assertThatThrownBy(() -> figures.render("<!--fig " + source + "-->1<!--/fig-->"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(message);
  }

  @Test
  void thePagesAreTheRepositorysMarkdownOutsideBuildOutput() throws Exception {
    for (String p : new String[] {"README.md", "docs/a.md", "bench/report/x/README.md", "static-server/target/x.md",
        ".git/x.md", "bench-results/run/README.md"}) {
      Files.createDirectories(root.resolve(p).getParent());
      Files.writeString(root.resolve(p), "x");
    }
    assertThat(figures.pages()).extracting(p -> root.relativize(p).toString())
        .containsExactly("README.md", "bench/report/x/README.md", "docs/a.md");
  }
}
