package io.portshare.bench.results;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One measurement of a cell: its figures by {@link Metric#key()}, the errors it counted, and
 * whether the load generator rather than the server was the bottleneck ({@link ClientBound}).
 */
public record Round(Map<String, Double> values, long errors, boolean clientBound) {

  public Round {
    values = new LinkedHashMap<>(values);
  }

  /** The figure of a metric, or NaN when this round did not measure it. */
  public double value(String key) {
    Double v = values.get(key);
    return v == null ? Double.NaN : v;
  }
}
