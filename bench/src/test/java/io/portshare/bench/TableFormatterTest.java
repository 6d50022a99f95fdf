package io.portshare.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TableFormatterTest {

  private static LoadResult result(long tx, long p99us, Map<ErrorKind, Long> errors) {
    return new LoadResult(tx, 1.0, new LatencySummary(tx, 1, 1, 1, p99us, p99us, p99us), errors);
  }

  private static MatrixResult matrix() {
    List<Column> cols = Column.SEED;
    MatrixRow shared = new MatrixRow("shared", 2, List.of(
        new CellResult(cols.get(0), List.of(result(12_345, 1_234, Map.of()))),
        new CellResult(cols.get(1), List.of(result(156_700, 850, Map.of()))),
        new CellResult(cols.get(2), List.of(result(11_000, 15_500, Map.of(ErrorKind.TIMEOUT, 2L)))),
        new CellResult(cols.get(3), List.of(result(99_990, 123_456, Map.of())))), null);
    MatrixRow pinned = new MatrixRow("pinned", 2, List.of(), "not available in this build");
    return new MatrixResult(Map.of(), cols, List.of(shared, pinned));
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
  void tableHasTheSeedColumnsRightAlignedAndMarksErrors() {
    String text = TableFormatter.format(matrix());
    List<String> lines = text.lines().toList();
    assertThat(lines.get(0)).isEqualTo("RPC echo: 10^4 transactions/s");
    assertThat(lines.get(1)).isEqualTo("workers  mode    64B|1x  64B|1024x  1024B|1x  1024B|1024x");
    assertThat(lines.get(2)).isEqualTo("      2  shared    1.23      15.67    1.10 *        10.00");
    assertThat(lines.get(3)).isEqualTo("      2  pinned  (not available in this build)");
    assertThat(text).contains("p99 latency, ms");
    assertThat(text).contains("      2  shared    1.23       0.85      15.5          123");
    assertThat(text).contains("* errors:\n  shared x2 1024B|1x: 2 timeout\n");
  }

  @Test
  void severalRoundsShowTheMedianAndTheSpread() {
    Column c = Column.SEED.get(1);
    CellResult cell = new CellResult(c, List.of(result(90_000, 1, Map.of()), result(110_000, 1, Map.of()),
        result(100_000, 1, Map.of())));
    assertThat(cell.medianTransPerSecond()).isEqualTo(100_000);
    assertThat(cell.spreadPercent()).isEqualTo(10.0);
    assertThat(cell.medianRound().transactions()).isEqualTo(100_000);
    MatrixResult m = new MatrixResult(Map.of(), List.of(c), List.of(new MatrixRow("reuseport", 1, List.of(cell), null)));
    assertThat(TableFormatter.format(m)).contains("median of 3 rounds").contains("10.00 ±10%");
  }

  @Test
  void columnsParseFromTheSeedNotation() {
    assertThat(Column.parseList("64B|1x,64B|1024x, 1024x1 ,1024:1024")).isEqualTo(Column.SEED);
    assertThat(Column.SEED.get(3).label()).isEqualTo("1024B|1024x");
  }
}
