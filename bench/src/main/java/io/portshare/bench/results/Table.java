package io.portshare.bench.results;

import java.util.List;

/**
 * One table of a benchmark: rows by columns, each cell measured in rounds. The first metric is the
 * headline (shown with its spread); the others are shown as medians. {@code ratio} may be null.
 */
public record Table(String key, String title, List<Metric> metrics, List<String> columns, List<Row> rows, Ratio ratio) {

  public Table {
    metrics = List.copyOf(metrics);
    columns = List.copyOf(columns);
    rows = List.copyOf(rows);
    if (metrics.isEmpty()) {
      throw new IllegalArgumentException("a table needs at least one metric");
    }
  }

  public Metric headline() {
    return metrics.get(0);
  }

  public int rounds() {
    return rows.stream().flatMap(r -> r.cells().stream()).mapToInt(c -> c.rounds().size()).max().orElse(0);
  }
}
