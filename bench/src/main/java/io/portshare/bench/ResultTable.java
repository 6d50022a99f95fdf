package io.portshare.bench;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A whole benchmark table, whatever it measured: rows, columns, and cells of measurements with
 * their CPU and flags; {@code meta} says what ran where (display order). Values are operations/s
 * ({@code unit}, e.g. "transactions/s"), shown divided by {@code scale} (10^4 for the RPC table).
 * Every report (text, JSON, CSV, HTML, PNG) is written from this alone.
 */
public record ResultTable(String title, String unit, double scale, Map<String, String> meta, List<String> columns,
    List<ResultRow> rows) {

  public ResultTable {
    meta = new LinkedHashMap<>(meta);
    columns = List.copyOf(columns);
    rows = List.copyOf(rows);
  }

  /** The unit as shown, e.g. "10^4 transactions/s". */
  public String shownUnit() {
    if (scale == 1) {
      return unit;
    }
    long exp = Math.round(Math.log10(scale));
    return (Math.pow(10, exp) == scale ? "10^" + exp : String.valueOf(scale)) + " " + unit;
  }

  /** Names of the row keys, from the first row that has some. */
  public List<String> keyNames() {
    return rows.stream().map(r -> List.copyOf(r.keys().keySet())).filter(k -> !k.isEmpty()).findFirst()
        .orElse(List.of());
  }

  /** Every error kind any cell counted, sorted. */
  public Set<String> errorKinds() {
    Set<String> kinds = new TreeSet<>();
    rows.forEach(r -> r.cells().forEach(c -> c.rounds().forEach(m -> kinds.addAll(m.errors().keySet()))));
    return kinds;
  }

  public boolean anyClientBound() {
    return rows.stream().flatMap(r -> r.cells().stream()).anyMatch(ResultCell::clientBound);
  }

  public boolean anyErrors() {
    return rows.stream().flatMap(r -> r.cells().stream()).anyMatch(c -> c.errorCount() > 0);
  }
}
