package io.portshare.bench.ledger;

import io.portshare.bench.results.Cell;
import io.portshare.bench.results.Results;
import io.portshare.bench.results.ResultsText;
import io.portshare.bench.results.Row;
import io.portshare.bench.results.Stats;
import io.portshare.bench.results.Table;
import java.util.Locale;
import java.util.Optional;

/**
 * The ledger's {@code table.txt}: the tables, then the headline (per row, the median server CPU per
 * operation and its ratio to the floor's, per column), both made from the results alone, so that
 * {@code report DIR} writes a committed run's table again as the run wrote it.
 */
public final class LedgerReport {

  public static final String TITLE = "portshare ledger: the cost of one connection";

  private LedgerReport() {}

  public static String text(Results results) {
    StringBuilder headline = new StringBuilder();
    for (Table t : results.tables()) {
      if (!t.metrics().isEmpty() && t.metrics().get(0).key().equals(LedgerTables.CPU.key()) && !t.rows().isEmpty()) {
        headline.append(headline(t));
      }
    }
    return ResultsText.of(results) + "\nHeadline (median server CPU µs per operation, ratio to the floor):\n" + headline;
  }

  /** One kind's headline from its CPU table, whose first row is the floor. */
  private static String headline(Table cpu) {
    Row floor = cpu.rows().get(0);
    StringBuilder s = new StringBuilder();
    for (Row row : cpu.rows()) {
      s.append(row.label()).append(':');
      for (String column : cpu.columns()) {
        double mine = median(row, column);
        double theirs = median(floor, column);
        if (Double.isNaN(mine)) {
          continue; // not answered here, or no round with a figure
        }
        s.append(String.format(Locale.ROOT, "  %s %.1f µs", column, mine));
        if (row != floor && theirs > 0) {
          s.append(String.format(Locale.ROOT, " (%.2fx)", mine / theirs));
        }
      }
      s.append('\n');
    }
    return s.toString();
  }

  private static double median(Row row, String column) {
    Optional<Cell> cell = row.cells().stream().filter(c -> c.column().equals(column)).findFirst();
    return cell.map(c -> Stats.median(c.rounds().stream().mapToDouble(r -> r.value(LedgerTables.CPU.key()))
        .filter(v -> !Double.isNaN(v)).toArray())).orElse(Double.NaN);
  }
}
