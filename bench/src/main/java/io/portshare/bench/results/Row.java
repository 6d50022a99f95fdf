package io.portshare.bench.results;

import java.util.List;

/** A row of a table and its cells, or a {@code note} saying why it has none (e.g. the server did not start). */
public record Row(String label, List<Cell> cells, String note) {

  public Row {
    cells = List.copyOf(cells);
  }

  public Row(String label, List<Cell> cells) {
    this(label, cells, null);
  }

  public Cell cell(String column) {
    for (Cell c : cells) {
      if (c.column().equals(column)) {
        return c;
      }
    }
    return null;
  }
}
