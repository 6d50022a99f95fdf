package io.portshare.bench.results;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one benchmark run measured, in the one format every table is written in: what ran where
 * ({@code meta}, in display order; {@code command} first when known) and its tables.
 */
public record Results(String title, Map<String, String> meta, List<Table> tables) {

  public Results {
    meta = new LinkedHashMap<>(meta);
    tables = List.copyOf(tables);
  }

  public boolean anyErrors() {
    return tables.stream().flatMap(t -> t.rows().stream()).flatMap(r -> r.cells().stream()).anyMatch(c -> c.errors() > 0);
  }
}
