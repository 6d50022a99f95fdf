package io.portshare.bench.results;

import java.util.Locale;

/**
 * {@code results.csv}: one line per table, row, column, round and metric (long form, so tables
 * with different metrics share one file), after a {@code #} line with the command when known.
 */
public final class ResultsCsv {

  private ResultsCsv() {}

  public static String of(Results r) {
    StringBuilder s = new StringBuilder();
    String command = r.meta().get("command");
    if (command != null) {
      s.append("# command: ").append(command).append('\n');
    }
    s.append("table,row,column,round,client_bound,errors,metric,value\n");
    for (Table t : r.tables()) {
      for (Row row : t.rows()) {
        for (Cell c : row.cells()) {
          for (int i = 0; i < c.rounds().size(); i++) {
            Round round = c.rounds().get(i);
            for (Metric m : t.metrics()) {
              double v = round.value(m.key());
              if (Double.isNaN(v)) {
                continue;
              }
              s.append(field(t.key())).append(',').append(field(row.label())).append(',').append(field(c.column()))
                  .append(',').append(i + 1).append(',').append(round.clientBound() ? 1 : 0).append(',')
                  .append(round.errors()).append(',').append(field(m.key())).append(',')
                  .append(String.format(Locale.ROOT, "%." + Math.max(m.decimals(), 3) + "f", v)).append('\n');
            }
          }
        }
      }
    }
    return s.toString();
  }

  private static String field(String v) {
    return v.contains(",") || v.contains("\"") ? "\"" + v.replace("\"", "\"\"") + "\"" : v;
  }
}
