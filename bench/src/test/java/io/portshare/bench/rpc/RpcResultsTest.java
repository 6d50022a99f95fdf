package io.portshare.bench.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import io.portshare.bench.cpu.CpuSpent;
import io.portshare.bench.load.LatencySummary;
import io.portshare.bench.load.Measurement;
import io.portshare.bench.results.Cell;
import io.portshare.bench.results.ResultsText;
import io.portshare.bench.results.Round;
import io.portshare.bench.results.Table;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** RPC runs in the shared results format: figures per round, per worker, CPU, errors by kind, the client-bound flag. */
class RpcResultsTest {

  /** A one-second run of {@code tx} transactions; the client spent {@code clientCpu} s on 2 cores, the server 0.5 s. */
  private static Measurement run(long tx, long p99us, Map<String, Long> errors, double clientCpu) {
    return new Measurement(tx, 1.0, new LatencySummary(tx, 1, 1, 1, p99us, p99us, p99us), errors,
        new CpuSpent(clientCpu, 0.5, 1.0, 2));
  }

  private static Table table() {
    Map<String, List<Measurement>> shared = new LinkedHashMap<>();
    shared.put("64B|1x", List.of(run(12_345, 1_234, Map.of(), 0.25)));
    shared.put("1024B|1x", List.of(run(11_000, 15_500, Map.of("timeout", 2L), 0.25)));
    shared.put("1024B|1024x", List.of(run(99_990, 123_456, Map.of(), 0.75)));
    return RpcResults.table("rpc", "RPC echo", List.of("64B|1x", "1024B|1x", "1024B|1024x"), List.of(
        new RpcResults.RowRuns("shared x2", 2, shared, null),
        new RpcResults.RowRuns("pinned x2", 2, Map.of(), "not available in this build")));
  }

  @Test
  void aRoundCarriesRatePerWorkerLatencyCpuAndErrorsByKind() {
    Round r = RpcResults.round(run(12_345, 1_234, Map.of("reset", 3L), 0.25), 2);
    assertThat(r.value(RpcResults.RATE)).isCloseTo(1.2345, offset(1e-9));
    assertThat(r.value(RpcResults.PER_WORKER)).isCloseTo(0.61725, offset(1e-9));
    assertThat(r.value(RpcResults.P99)).isCloseTo(1.234, offset(1e-9));
    assertThat(r.value(RpcResults.CLIENT_CPU)).isCloseTo(20.25, offset(0.01)); // 0.25 s over 12,345
    assertThat(r.value(RpcResults.SERVER_CPU)).isCloseTo(40.50, offset(0.01));
    assertThat(r.value(RpcResults.CLIENT_BUSY)).isCloseTo(12.5, offset(1e-9));
    assertThat(r.value("errors_reset")).isEqualTo(3);
    assertThat(r.errors()).isEqualTo(3);
    assertThat(r.clientBound()).isFalse();
  }

  @Test
  void withoutAWorkerCountThereIsNoPerWorkerFigure() {
    assertThat(RpcResults.round(run(10_000, 1, Map.of(), 0.25), 0).value(RpcResults.PER_WORKER)).isNaN();
  }

  @Test
  void theTableMarksTheClientBoundCellAndTheCellWithErrors() {
    Table t = table();
    Cell bound = t.rows().get(0).cell("1024B|1024x");
    assertThat(bound.clientBound()).isTrue(); // 0.75 s of client CPU against the server's 0.5 s
    assertThat(t.rows().get(0).cell("64B|1x").clientBound()).isFalse();
    assertThat(t.metrics()).extracting(m -> m.key()).containsExactly(RpcResults.RATE, RpcResults.PER_WORKER,
        RpcResults.P99, RpcResults.CLIENT_CPU, RpcResults.SERVER_CPU, RpcResults.CLIENT_BUSY, "errors_timeout");
    String text = ResultsText.table(t);
    assertThat(text).contains("10^4 transactions/s", "1.23", "10.00", "(not available in this build)",
        "! shared x2, 1024B|1024x: client-bound", "* shared x2, 1024B|1x: 2 errors", "10^4 transactions/s per worker",
        "client CPU us/transaction");
  }

  @Test
  void aClientThatSpentMoreCpuThanTheServerBoundTheFigure() {
    assertThat(new CpuSpent(0.6, 0.5, 1.0, 2).clientBound()).isTrue();
    assertThat(new CpuSpent(0.4, 0.5, 1.0, 2).clientBound()).isFalse();
  }

  @Test
  void aClientThatKeptItsCoresBusyBoundTheFigureEvenWithoutTheServersCpu() {
    assertThat(new CpuSpent(0.95, Double.NaN, 1.0, 1).clientBound()).isTrue();
    assertThat(new CpuSpent(0.5, Double.NaN, 1.0, 1).clientBound()).isFalse(); // half a core, server unknown
    assertThat(new CpuSpent(Double.NaN, 0.5, 1.0, 2).clientBound()).isFalse(); // nothing known, nothing claimed
  }

  @Test
  void ratesAndLatenciesAreWrittenForPeople() {
    assertThat(Formats.rate(156_700)).isEqualTo("15.67");
    assertThat(Formats.millis(850)).isEqualTo("0.85");
    assertThat(Formats.millis(123_456)).isEqualTo("123");
    assertThat(Formats.micros(Double.NaN)).isEqualTo("?");
  }

  @Test
  void columnsParseFromTheSeedNotation() {
    assertThat(Column.parseList("64B|1x,64B|1024x, 1024x1 ,1024:1024")).isEqualTo(Column.SEED);
    assertThat(Column.SEED.get(3).label()).isEqualTo("1024B|1024x");
  }
}
