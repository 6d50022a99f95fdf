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

      of which user (median)
                          64B|1x  64B|1024x
      c-echo                 1.7        0.3
      rpc-server            16.1        2.2

      RPC echo: each row over c-echo: server CPU per operation over the floor's, round by round, median of 5 rounds (min-max)
                                    64B|1x         64B|1024x
      rpc-server          1.14 (1.11-1.19)  1.20 (1.05-1.33)
      rpc-server-vertx    disagree (1.10-1.40)  1.20 (1.05-1.33)

      static files, one worker each side, per request (= connection on close): server CPU µs per operation
                                 1k.bin close  1k.bin keep-alive
      nginx                  38.0 (37.0-41.9)   18.8 (15.9-19.2)

      of which user (median)
                             1k.bin close  1k.bin keep-alive
      nginx                          10.7                4.1

      1k.bin keep-alive (latency in ms; rate per second; CPU in cores)
      server at share         asked  reached   p50    p99  errors  flag
      nginx closed                -  52000.0  0.41   1.20       0  closed loop
      nginx 80%               41600  41598.2  0.12   0.35       0  -
      static-server 80%       41600  41601.0  0.10   0.52       0  -
      """;

  /** A file that is no table of sections: a script's lines (cut from a real cold-start run). */
  static final String LINES = """
      # command: ROUNDS=3 deploy/bench.sh coldstart
      rpc-server java17 12s 1 11.25 - - - - | 18657 21358 0.87 2 11
      # median of 3 fresh starts (min-max):
      # rpc-server java17 12s            ready 10.76 s (8.32-11.25)  first 2 s  18506 trans/s, warm  18618, ratio 0.93 (0.87-0.99), full speed after 0 s
      # static-server java17 0           ready  1.55 s (1.43-1.60)  answered  8135 of 10000 (7708-8282), errors 1865, 3174 conn/s; warm storm 0
      # raw httperf output and rpcload runs, in run order:
      """;

  /** A file of one line per round (cut from a real one). */
  static final String ROUNDS = """
      # command: raw-netty-close-ab.sh JAR SITE 6 5s raw-netty-netns.txt
      # case server round req_s user_us_per_req sys_us_per_req total_us_per_req
      1k.bin|close vertx 1 18670.10 26.4 28.1 54.5
      1k.bin|close nginx 1 20254.59 11.0 31.0 42.0
      1k.bin|close vertx 2 18253.76 28.6 27.4 56.0
      1k.bin|close nginx-off 2 20759.51 11.2 31.3 42.5
      1k.bin|close vertx 3 18177.42 26.9 28.7 55.6
      1k.bin|close nginx 3 20615.09 11.8 30.5 42.3
      1k.bin|close vertx 4 17966.15 27.6 29.4 57.0
      """;

  @TempDir
  Path root;
  Figures figures;

  @BeforeEach
  void write() throws Exception {
    Files.createDirectories(root.resolve("r"));
    Files.writeString(root.resolve("r/table.txt"), RAW);
    Files.writeString(root.resolve("r/coldstart.txt"), LINES);
    Files.writeString(root.resolve("r/rounds.txt"), ROUNDS);
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
      "r/table.txt ; header ; date#2026-12-03T08:25:10",
      "r/table.txt ; of which user ; rpc-server ; 64B\\|1x#16.1",
      "r/table.txt ; RPC echo, one worker :: of which user ; rpc-server ; 64B\\|1x#16.1",
      "r/table.txt ; static files :: of which user ; nginx ; 1k.bin close#10.7",
      "r/table.txt ; 1k.bin keep-alive ; static-server 80% ; p99#0.52",
      "r/table.txt ; 1k.bin keep-alive ; nginx 80% ; flag#-",
      "r/table.txt ; 1k.bin keep-alive ; nginx closed ; reached ; median#52000.0"})
  void aFigureIsTheCellItsMarkerNames(String source, String value) {
    String page = "| a | <!--fig " + source + "-->typed by hand<!--/fig--> |\n";
    assertThat(figures.render(page)).isEqualTo("| a | <!--fig " + source + "-->" + value + "<!--/fig--> |\n");
  }

  @Test
  void aHeaderMayBeATitleThenTheRunsFactsAsTheLatencyReportWritesIt() throws Exception {
    Files.writeString(root.resolve("r/latency.txt"), """
        portshare latency: open loop from the due time

        command: deploy/bench.sh latency
        commit: 0123abc

        64B|1x (latency in ms; rate per second; CPU in cores)
        server at share  asked  p99  flag
        c-echo 50%        6554  2.07  -
        """);
    assertThat(figures.render("<!--fig r/latency.txt ; header ; commit-->?<!--/fig--> "
        + "<!--fig r/latency.txt ; 64B\\|1x ; c-echo 50% ; p99-->?<!--/fig-->"))
        .isEqualTo("<!--fig r/latency.txt ; header ; commit-->0123abc<!--/fig--> "
            + "<!--fig r/latency.txt ; 64B\\|1x ; c-echo 50% ; p99-->2.07<!--/fig-->");
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
        rpc-server-vertx    disagree (1.10-1.40)  1.20 (1.05-1.33)
        ```
        <!--/excerpt-->
        after
        """);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiterString = "=>", value = {
      "r/coldstart.txt ; line ; # rpc-server java17 12s ; ratio=>0.93",
      "r/coldstart.txt ; line ; # rpc-server java17 12s ; ready=>10.76",
      "r/coldstart.txt ; line ; # rpc-server java17 12s ; warm=>18618",
      "r/coldstart.txt ; line ; # static-server java17 0 ; answered=>8135",
      "r/coldstart.txt ; line ; # static-server java17 0 ; errors=>1865",
      "r/coldstart.txt ; line ; rpc-server java17 12s 1 ; |=>18657",
      "r/coldstart.txt ; line ; # median of ; median=>of"})
  void aWordOfALineIsTheWordAfterTheOneItsMarkerNames(String source, String value) {
    String page = "<!--fig " + source + "-->typed by hand<!--/fig-->";
    assertThat(figures.render(page)).isEqualTo("<!--fig " + source + "-->" + value + "<!--/fig-->");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiterString = "=>", value = {
      "r/rounds.txt ; rounds ; 1k.bin\\|close nginx ; total_us_per_req=>42.2",
      "r/rounds.txt ; rounds ; 1k.bin\\|close vertx ; total_us_per_req=>55.8",
      "r/rounds.txt ; rounds ; 1k.bin\\|close vertx ; user_us_per_req=>27.2",
      "r/rounds.txt ; rounds ; 1k.bin\\|close vertx ; req_s=>18215.59",
      "r/rounds.txt ; rounds ; 1k.bin\\|close vertx ; total_us_per_req ; range=>54.5-57.0",
      "r/rounds.txt ; rounds ; 1k.bin\\|close nginx-off ; round=>2"})
  void aRoundsFigureIsTheMedianOfItsColumnOverTheRoundsLines(String source, String value) {
    String page = "<!--fig " + source + "-->typed by hand<!--/fig-->";
    assertThat(figures.render(page)).isEqualTo("<!--fig " + source + "-->" + value + "<!--/fig-->");
  }

  @ParameterizedTest(name = "{1}")
  @CsvSource(delimiterString = "=>", value = {
      "r/rounds.txt ; rounds ; 1k.bin\\|close rawscan ; total_us_per_req=>no round's line starts \"1k.bin|close rawscan\"",
      "r/rounds.txt ; rounds ; 1k.bin\\|close vertx ; wrk_us_per_req=>no # line names a column \"wrk_us_per_req\"",
      "r/rounds.txt ; rounds ; 1k.bin\\|close vertx ; req_s ; median=>a rounds figure is PATH ; rounds ; LINE-START ; COLUMN [; range]"})
  void aRoundsFigureWhoseLinesAreGoneFailsSayingWhat(String source, String message) {
    assertThatThrownBy(() -> figures.render("<!--fig " + source + "-->1<!--/fig-->"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(message);
  }

  @ParameterizedTest(name = "{1}")
  @CsvSource(delimiterString = "=>", value = {
      "r/coldstart.txt ; line ; # nginx ; ready=>no line starting \"# nginx\"",
      "r/coldstart.txt ; line ; # rpc-server java17 12s ; storm=>nothing after \"storm\"",
      "r/coldstart.txt ; line ; # static-server java17 0 ; storm 0=>nothing after \"storm 0\""})
  void aWordWhoseLineIsGoneFailsSayingWhat(String source, String message) {
    assertThatThrownBy(() -> figures.render("<!--fig " + source + "-->1<!--/fig-->"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(message);
  }

  @Test
  void anExcerptByLinesRunsFromTheFirstLineNamedThroughTheLast() {
    String page = "<!--excerpt r/coldstart.txt ; lines ; # median of ; # static-server-->\n```\n```\n<!--/excerpt-->\n";
    assertThat(figures.render(page)).isEqualTo("""
        <!--excerpt r/coldstart.txt ; lines ; # median of ; # static-server-->
        ```
        # median of 3 fresh starts (min-max):
        # rpc-server java17 12s            ready 10.76 s (8.32-11.25)  first 2 s  18506 trans/s, warm  18618, ratio 0.93 (0.87-0.99), full speed after 0 s
        # static-server java17 0           ready  1.55 s (1.43-1.60)  answered  8135 of 10000 (7708-8282), errors 1865, 3174 conn/s; warm storm 0
        ```
        <!--/excerpt-->
        """);
  }

  @ParameterizedTest(name = "{1}")
  @CsvSource(delimiter = '#', value = {
      "r/table.txt ; RPC echo: each ; netty-echo ; 64B\\|1x#no row \"netty-echo\"",
      "r/table.txt ; RPC echo: each ; rpc-server ; 1024B\\|1x#no column \"1024B|1x\"",
      "r/table.txt ; TCP echo ; rpc-server ; 64B\\|1x#no section titled \"TCP echo…\"",
      "r/table.txt ; static files :: of which system ; nginx ; 1k.bin close#no section titled \"static files :: of which system…\"",
      "r/table.txt ; TCP echo :: of which user ; nginx ; 1k.bin close#no section titled \"TCP echo :: of which user…\"",
      "r/table.txt ; header ; commit#has no header line \"commit:\"",
      "r/none.txt ; header ; date#cannot read the raw file r/none.txt",
      "../outside.txt ; header ; date#a raw file outside the repository",
      "r/table.txt ; static files ; nginx ; 1k.bin close ; percent#unknown format \"percent\"",
      "r/table.txt ; static files ; nginx#a figure is PATH ; SECTION ; ROW ; COLUMN",
      "r/table.txt ; RPC echo: each ; rpc-server-vertx ; 64B\\|1x ; x#\"disagree (1.10-1.40)\" is no figure to quote",
      "r/table.txt ; RPC echo: each ; rpc-server-vertx ; 64B\\|1x ; median#\"disagree (1.10-1.40)\" is no figure to quote"})
  void aFigureWhoseSourceIsGoneFailsSayingWhat(String source, String message) {
    assertThatThrownBy(() -> figures.render("<!--fig " + source + "-->1<!--/fig-->"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(message);
  }

  @Test
  void anExcerptByBlockRunsFromTheLineNamedUpToABlankLine() {
    String page = "<!--excerpt r/table.txt ; block ; warm-up 1-->\n```\n```\n<!--/excerpt-->\n";
    assertThat(figures.render(page)).isEqualTo("""
        <!--excerpt r/table.txt ; block ; warm-up 1-->
        ```
          warm-up 1: c-echo 64B|1x: 25.6 26.6 25.2
        ```
        <!--/excerpt-->
        """);
  }

  @ParameterizedTest(name = "{1}")
  @CsvSource(delimiterString = "=>", value = {
      "r/coldstart.txt ; block ; # nginx=>no line starting \"# nginx\"",
      "r/coldstart.txt ; lines ; # nginx ; # static=>no line starting \"# nginx\"",
      "r/coldstart.txt ; lines ; # static-server ; # rpc-server=>no line starting \"# rpc-server\" after",
      "r/coldstart.txt ; lines ; # median=>an excerpt is PATH ; SECTION, PATH ; lines ; FIRST ; LAST",
      "r/coldstart.txt ; block ; # median ; # rpc=>an excerpt is PATH ; SECTION, PATH ; lines ; FIRST ; LAST or PATH ; block ; FIRST"})
  void anExcerptWhoseLinesAreGoneFailsSayingWhat(String source, String message) {
    assertThatThrownBy(() -> figures.render("<!--excerpt " + source + "-->\n```\n```\n<!--/excerpt-->"))
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
