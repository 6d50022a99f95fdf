package io.portshare.kit;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Which text types a measured figure by hand ({@link ProseFigures}), one line at a time. */
class ProseFiguresTest {

  @ParameterizedTest(name = "typed: {0}")
  @ValueSource(strings = {"rpc-server used 1.2x the C server's CPU", "p99 was 31 ms", "4.6 µs per request",
      "12% of the errors", "30,000 requests/s", "a restart of 18323 ms", "| 1 KB close | 2.2 ms |", "at 3,000/s",
      "it ran 4 s", "20,275 req/s", "0.922 CPU-s/GB", "the nginx cell 1.02x (median)", "21,458 trans/s"})
  void aNumberWithAUnitOfTimeRateRatioOrShareIsTyped(String line) {
    assertThat(ProseFigures.in("p.md", line)).hasSize(1).first().asString().startsWith("p.md:1: \"");
  }

  @ParameterizedTest(name = "not typed: {0}")
  @ValueSource(strings = {"rpc-server <!--fig a ; b ; c ; d ; x-->1.15x<!--/fig--> the C server's CPU",
      "kept until `--idle-timeout 75s`", "a `2 s` linger", "seed 004 published <!--published seed 004-->1.52x<!--/published-->",
      "the `64B|1x` column", "64B\\|1x and 1024B\\|1024x", "[ledger](bench/report/ledger/1x/README.md)",
      "<!--excerpt bench/report/x.txt ; lines ; 12s ; 5 s-->", "4 wrk processes of 7,500 connections", "HTTP/1.1 and 2 CPUs",
      "the 100 MB file, 1 KB objects, 64 B frames"})
  void markersCodeSpansAndPublishedQuotesAreNot(String line) {
    assertThat(ProseFigures.in("p.md", line)).isEmpty();
  }

  @ParameterizedTest(name = "fenced: {0}")
  @ValueSource(strings = {"```\n2.11 ms\n```\n", "```text\nrpc-server 1.15x\n```\n"})
  void aFencedBlockIsAnExcerptOrACommandNotProse(String page) {
    assertThat(ProseFigures.in("p.md", page)).isEmpty();
  }
}
