package io.portshare.bench.results;

/** A table's comparison: the headline metric's median in one column over another's, per row. */
public record Ratio(String numerator, String denominator) {

  public String label() {
    return numerator + " / " + denominator;
  }

  /** NaN when either column is missing or the denominator is not positive. */
  public double of(Row row, String key) {
    Cell a = row.cell(numerator);
    Cell b = row.cell(denominator);
    if (a == null || b == null) {
      return Double.NaN;
    }
    double d = b.median(key);
    return d > 0 ? a.median(key) / d : Double.NaN;
  }
}
