package io.portshare.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TableFormatterTest {

  /** A one-second round of {@code tx} operations; the client spent {@code clientCpu} s on 2 cores, the server 0.5 s. */
  private static Measurement result(long tx, long p99us, Map<String, Long> errors, double clientCpu) {
    return new Measurement(tx, 1.0, new LatencySummary(tx, 1, 1, 1, p99us, p99us, p99us), errors,
        new CpuSpent(clientCpu, 0.5, 1.0, 2));
  }

  private static Measurement result(long tx, long p99us, Map<String, Long> errors) {
    return result(tx, p99us, errors, 0.25);
  }

  private static Map<String, String> keys(int workers, String mode) {
    Map<String, String> k = new LinkedHashMap<>();
    k.put("workers", Integer.toString(workers));
    k.put("mode", mode);
    return k;
  }

  private static ResultTable matrix() {
    List<String> cols = Column.SEED.stream().map(Column::label).toList();
    ResultRow shared = new ResultRow("shared x2", keys(2, "shared"), List.of(
        new ResultCell(cols.get(0), List.of(result(12_345, 1_234, Map.of()))),
        new ResultCell(cols.get(1), List.of(result(156_700, 850, Map.of()))),
        new ResultCell(cols.get(2), List.of(result(11_000, 15_500, Map.of("timeout", 2L)))),
        new ResultCell(cols.get(3), List.of(result(99_990, 123_456, Map.of(), 0.75)))), null);
    ResultRow pinned = new ResultRow("pinned x2", keys(2, "pinned"), List.of(), "not available in this build");
    return new ResultTable("RPC echo", "transactions/s", 1e4, Map.of(), cols, List.of(shared, pinned));
  }

  @Test
  void ratesAreInTenThousandsPerSecond() {
    assertThat(TableFormatter.rate(12_345)).isEqualTo("1.23");
    assertThat(TableFormatter.rate(156_700)).isEqualTo("15.67");
    assertThat(TableFormatter.rate(0)).isEqualTo("0.00");
  }

  @Test
  void latencyIsShownInMillisecondsWithSensiblePrecision() {
    assertThat(TableFormatter.millis(850)).isEqualTo("0.85");
    assertThat(TableFormatter.millis(15_500)).isEqualTo("15.5");
    assertThat(TableFormatter.millis(123_456)).isEqualTo("123");
  }

  @Test
  void tableHasTheSeedColumnsRightAlignedAndMarksErrorsAndClientBoundCells() {
    String text = TableFormatter.format(matrix());
    List<String> lines = text.lines().toList();
    assertThat(lines.get(0)).isEqualTo("RPC echo: 10^4 transactions/s");
    assertThat(lines.get(1)).isEqualTo("workers  mode    64B|1x  64B|1024x  1024B|1x  1024B|1024x");
    assertThat(lines.get(2)).isEqualTo("      2  shared    1.23      15.67    1.10 *      10.00 !");
    assertThat(lines.get(3)).isEqualTo("      2  pinned  (not available in this build)");
    assertThat(text).contains("per worker: 10^4 transactions/s / workers\n");
    assertThat(text).contains("      2  shared    0.62       7.84      0.55         5.00");
    assertThat(text).contains("p99 latency, ms");
    assertThat(text).contains("      2  shared    1.23       0.85      15.5          123");
    assertThat(text).contains("CPU per operation, us: client / server");
    assertThat(text).contains("20.3 / 40.5"); // 0.25 s and 0.5 s over 12,345 transactions
    assertThat(text).contains(TableFormatter.CLIENT_BOUND_NOTE);
    assertThat(text).contains("* errors:\n  shared x2 1024B|1x: 2 timeout\n");
  }

  @Test
  void severalRoundsShowTheMedianAndTheSpread() {
    String c = Column.SEED.get(1).label();
    ResultCell cell = new ResultCell(c, List.of(result(90_000, 1, Map.of()), result(110_000, 1, Map.of()),
        result(100_000, 1, Map.of())));
    assertThat(cell.median()).isEqualTo(100_000);
    assertThat(cell.spreadPercent()).isEqualTo(10.0);
    assertThat(cell.medianRound().operations()).isEqualTo(100_000);
    ResultTable m = new ResultTable("RPC echo", "transactions/s", 1e4, Map.of(), List.of(c),
        List.of(new ResultRow("reuseport x1", keys(1, "reuseport"), List.of(cell), null)));
    assertThat(TableFormatter.format(m)).contains("median of 3 rounds").contains("10.00 ±10%");
  }

  @Test
  void aClientThatSpentMoreCpuThanTheServerBoundTheFigure() {
    assertThat(new CpuSpent(0.6, 0.5, 1.0, 2).clientBound()).isTrue();
    assertThat(new CpuSpent(0.4, 0.5, 1.0, 2).clientBound()).isFalse();
  }

  @Test
  void aClientThatKeptItsCoresBusyBoundTheFigureEvenWithoutTheServersCpu() {
    assertThat(new CpuSpent(1.85, Double.NaN, 1.0, 2).clientBound()).isTrue(); // 92% of 2 cores
    assertThat(new CpuSpent(0.95, Double.NaN, 1.0, 1).clientBound()).isTrue();
    assertThat(new CpuSpent(1.0, Double.NaN, 1.0, 2).clientBound()).isFalse(); // half its cores, server unknown
    assertThat(new CpuSpent(Double.NaN, 0.5, 1.0, 2).clientBound()).isFalse(); // nothing known, nothing claimed
  }

  @Test
  void aCellIsClientBoundWhenMostOfItsRoundsWere() {
    String c = Column.SEED.get(0).label();
    Measurement bound = result(10_000, 1, Map.of(), 0.75);
    Measurement free = result(10_000, 1, Map.of(), 0.25);
    assertThat(new ResultCell(c, List.of(bound, bound, free)).clientBound()).isTrue();
    assertThat(new ResultCell(c, List.of(bound, free, free)).clientBound()).isFalse();
    assertThat(new ResultCell(c, List.of(free, free)).clientBound()).isFalse();
  }

  @Test
  void columnsParseFromTheSeedNotation() {
    assertThat(Column.parseList("64B|1x,64B|1024x, 1024x1 ,1024:1024")).isEqualTo(Column.SEED);
    assertThat(Column.SEED.get(3).label()).isEqualTo("1024B|1024x");
  }
}
