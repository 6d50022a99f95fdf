package io.portshare.bench.staticfiles;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.portshare.bench.cpu.CpuTime;
import io.portshare.bench.results.Round;
import io.portshare.kit.Ci;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WrkTest {

  @TempDir
  Path dir;

  @Test
  void theCommandLineCarriesThreadsConnectionsWholeSecondsAndTheCloseHeader() {
    Wrk wrk = new Wrk("wrk", 2, 64);
    assertThat(wrk.command("http://127.0.0.5:1/1k.bin", false, Duration.ofMillis(3500)))
        .containsExactly("wrk", "-t2", "-c64", "-d3s", "--latency", "http://127.0.0.5:1/1k.bin");
    assertThat(wrk.command("http://127.0.0.5:1/1k.bin", true, Duration.ofMillis(200)))
        .containsExactly("wrk", "-t2", "-c64", "-d1s", "--latency", "-H", "Connection: close", "http://127.0.0.5:1/1k.bin");
    assertThat(wrk.command("http://127.0.0.5:1/1k.bin", true, Duration.ofSeconds(10), Duration.ofSeconds(40)))
        .containsExactly("wrk", "-t2", "-c64", "-d10s", "--latency", "-H", "Connection: close", "--timeout", "40s",
            "http://127.0.0.5:1/1k.bin");
  }

  /** A real wrk against a real HTTP server in this JVM: its report is read (its CPU: CpuTimeTest). */
  @Test
  void aShortRunIsRead() throws Exception {
    Optional<String> bin = Tools.find("wrk");
    Ci.require(bin.isPresent(), "wrk is not installed (apt-get install wrk); the wrk run is not checked");
    Path root = dir.resolve("site");
    Site.create(root, List.of("1k.bin"), null);
    try (FileServer server = new FileServer(root)) {
      // One answer first, so that a slow first request (class loading on a busy machine) is not wrk's window.
      assertThat(Download.fetch("127.0.0.1", server.port(), "1k.bin")).isEqualTo(1024);
      Wrk wrk = new Wrk(bin.get(), 1, 4);
      Wrk.Run run = wrk.run("http://127.0.0.4:" + server.port() + "/1k.bin", false, Duration.ofSeconds(2));
      assertThat(run.result().requests()).isPositive();
      assertThat(run.result().errors()).isZero();
      // The latencies read are wrk's, in their units: both are there; the average agrees with the
      // throughput by Little's law (4 connections: at most 4 requests in flight, more than none; wide
      // bounds, as a unit misread is a factor of 1000); a p99 under a tenth of the average is a
      // misread too (the slowest 1% would have to average 900 times the p99, which a 2-second run
      // of 4 connections cannot hold).
      WrkResult w = run.result();
      assertThat(w.latencyAvgUs()).isPositive();
      assertThat(w.latencyP99Us()).isPositive().isGreaterThanOrEqualTo(w.latencyAvgUs() / 10);
      assertThat(w.latencyAvgUs() / 1e6 * w.requestsPerSecond()).as("requests in flight by Little's law")
          .isBetween(0.04, 8.0);

      Wrk.Run missing = wrk.run("http://127.0.0.4:" + server.port() + "/none.bin", true, Duration.ofSeconds(2));
      assertThat(missing.result().badStatus()).isEqualTo(missing.result().requests()).isPositive();
    }
  }

  @Test
  void aWrkThatCannotRunIsAnErrorWithItsOutput() {
    assertThatThrownBy(() -> new Wrk("/bin/false", 1, 1).run("http://127.0.0.1:1/", false, Duration.ofSeconds(1)))
        .isInstanceOf(IOException.class).hasMessageContaining("exited with 1");
  }

  @Test
  void aRoundHasPerRequestCpuOfBothSidesAndTheClientBoundFlag() {
    WrkResult w = new WrkResult(10_000, 2.0, 1500, 9000, 0, 0, 0, 0, 3);
    Round serverBound = StaticBench.round(new Wrk.Run(w, new CpuTime(0.1, 0.1), 2.0), new CpuTime(0.3, 0.2), 2, 2);
    assertThat(serverBound.value("requestsPerSecond")).isEqualTo(5000);
    assertThat(serverBound.value("serverCpuUsPerRequest")).isEqualTo(50);
    assertThat(serverBound.value("serverUserUsPerRequest")).isEqualTo(30);
    assertThat(serverBound.value("serverSystemUsPerRequest")).isEqualTo(20);
    assertThat(serverBound.value("clientCpuUsPerRequest")).isEqualTo(20);
    assertThat(serverBound.value("latencyP99Ms")).isEqualTo(9);
    assertThat(serverBound.errors()).isEqualTo(3);
    assertThat(serverBound.clientBound()).isFalse();

    Round clientBound = StaticBench.round(new Wrk.Run(w, new CpuTime(0.4, 0.2), 2.0), new CpuTime(0.3, 0.2), 2, 2);
    assertThat(clientBound.clientBound()).isTrue();

    Round nothing = StaticBench.round(new Wrk.Run(new WrkResult(0, 1, 0, 0, 64, 0, 0, 0, 0), new CpuTime(0, 0), 1),
        new CpuTime(0, 0), 2, 2);
    assertThat(nothing.value("requestsPerSecond")).isZero();
    assertThat(nothing.value("serverCpuUsPerRequest")).isNaN();
  }
}
