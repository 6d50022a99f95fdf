package io.portshare.bench.seeds;

import static org.assertj.core.api.Assertions.assertThat;

import io.portshare.bench.cpu.CpuSpent;
import io.portshare.bench.load.ErrorKind;
import io.portshare.bench.load.LatencySummary;
import io.portshare.bench.load.Measurement;
import io.portshare.bench.results.Round;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Seed 004's cells: errors by kind into the four columns, and when the generator, not the server, held the rate. */
class OverloadRoundTest {

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({"TIMEOUT,timeouts", "UNANSWERED,timeouts", "CONNECT_REFUSED,connect", "RESET,read", "CLOSED,read",
      "SHORT_BODY,read", "WRONG_PAYLOAD,read", "OTHER,read", "STATUS,non2xx"})
  void everyErrorKindHasItsColumn(ErrorKind kind, String column) {
    assertThat(OverloadRound.column(kind)).isEqualTo(column);
    assertThat(OverloadRound.split(Map.of(kind.label(), 3L))).containsEntry(column, 3L)
        .containsOnlyKeys("timeouts", "connect", "read", "non2xx");
  }

  @Test
  void errorsOfOneColumnAddUp() {
    assertThat(OverloadRound.split(Map.of("timeout", 2L, "unanswered", 5L, "reset", 1L, "closed", 4L)))
        .isEqualTo(Map.of("timeouts", 7L, "connect", 0L, "read", 5L, "non2xx", 0L));
  }

  private record Case(double clientCpu, double serverCpu, int clientCores, String reasons) {}

  /** A 10 s window; the machine's CPUs as the benchmark's rule sees them (at least 1). */
  private static final List<Case> FLAGS = List.of(
      new Case(3, 15, 1, ""), // a server that works harder than its generator: the server's figure
      new Case(9, 15, 1, "client CPU 90% of its cores"),
      new Case(9.5, 8, 1, "client CPU 95% of its cores"),
      new Case(5, 4, 1, "client CPU 5.00 s against the server's 4.00 s"),
      new Case(8, 15, 2, ""), // two loops, each 40% busy
      new Case(Double.NaN, 4, 1, "")); // unknown client CPU claims nothing

  @Test
  void flaggedWhenTheGeneratorWasBusyOrSpentMoreThanTheServer() {
    for (Case c : FLAGS) {
      OverloadRound.Flag f = OverloadRound.Flag.of(3000, 2000, new CpuSpent(c.clientCpu(), c.serverCpu(), 10,
          c.clientCores()));
      assertThat(f.reasons()).as("%s", c).isEqualTo(c.reasons());
      assertThat(f.clientHeld()).as("%s", c).isEqualTo(!c.reasons().isEmpty());
    }
  }

  @Test
  void aFigureNotMeasuredIsLeftOutRatherThanWrittenAsNaN() {
    Measurement none = new Measurement(0, 1, LatencySummary.EMPTY, Map.of(), CpuSpent.unknown(1));
    Round r = OverloadRound.of(0, none);
    assertThat(r.values()).doesNotContainKeys("p99Ms", "serverCores", "clientCores")
        .containsEntry("answered", 0.0).containsEntry("timeouts", 0.0);
    assertThat(r.value("p99Ms")).isNaN();
  }

  @Test
  void aRoundCarriesTheRateTheAnswersTheErrorsAndBothSidesCpu() {
    Measurement m = new Measurement(20_000, 10, new LatencySummary(20_000, 900, 800, 1200, 4500, 9000, 12000),
        Map.of("timeout", 30L, "connect-refused", 2L, "non-2xx", 1L), new CpuSpent(3, 15, 10, 1));
    Round r = OverloadRound.of(3000, m);
    assertThat(r.values()).containsEntry("requestsPerSecond", 2000.0).containsEntry("asked", 3000.0)
        .containsEntry("answered", 20_000.0).containsEntry("errors", 33.0).containsEntry("timeouts", 30.0)
        .containsEntry("connect", 2.0).containsEntry("read", 0.0).containsEntry("non2xx", 1.0)
        .containsEntry("p99Ms", 4.5).containsEntry("serverCores", 1.5).containsEntry("clientCores", 0.3);
    assertThat(r.errors()).isEqualTo(33);
    assertThat(r.clientBound()).isFalse();
    assertThat(OverloadRound.METRICS).extracting(io.portshare.bench.results.Metric::key)
        .containsAll(r.values().keySet());
  }
}
