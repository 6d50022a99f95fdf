package io.portshare.bench;

import java.util.List;

/**
 * A row of the table: one server layout ({@code mode} at {@code workers}) and its cells, or a
 * {@code note} saying why it has none (mode not available, server did not start).
 */
public record MatrixRow(String mode, int workers, List<CellResult> cells, String note) {

  public MatrixRow {
    cells = List.copyOf(cells);
  }

  public String label() {
    return mode + " x" + workers;
  }

  public CellResult cell(Column c) {
    for (CellResult r : cells) {
      if (r.column().equals(c)) {
        return r;
      }
    }
    return null;
  }
}
