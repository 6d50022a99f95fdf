package io.portshare.bench;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A row of a table: what was measured ({@code keys}, in display order, e.g. workers and mode) and
 * its cells, or a {@code note} saying why it has none (mode not available, server did not start).
 */
public record ResultRow(String label, Map<String, String> keys, List<ResultCell> cells, String note) {

  public ResultRow {
    keys = new LinkedHashMap<>(keys);
    cells = List.copyOf(cells);
  }

  public ResultCell cell(String column) {
    for (ResultCell r : cells) {
      if (r.column().equals(column)) {
        return r;
      }
    }
    return null;
  }
}
