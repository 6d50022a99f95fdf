package io.portshare.bench;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A whole RPC matrix: what ran where ({@code meta}, in display order), its columns and rows. */
public record MatrixResult(Map<String, String> meta, List<Column> columns, List<MatrixRow> rows) {

  public MatrixResult {
    meta = new LinkedHashMap<>(meta);
    columns = List.copyOf(columns);
    rows = List.copyOf(rows);
  }
}
