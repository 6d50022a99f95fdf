package io.portshare.bench.latency;

import org.HdrHistogram.Histogram;

/**
 * The latency distribution of a cell in microseconds, as the report plots it: 50%, 90%, 99%,
 * 99.9%, 99.99% and the maximum, read from an HdrHistogram of microsecond values.
 */
public record Percentiles(long count, long p50, long p90, long p99, long p999, long p9999, long max) {

  public static final String[] LABELS = {"50%", "90%", "99%", "99.9%", "99.99%", "max"};
  /** The percentile each label stands for; the maximum is drawn at the 99.999% position. */
  static final double[] QUANTILES = {50, 90, 99, 99.9, 99.99, 99.999};

  public static Percentiles of(Histogram h) {
    if (h.getTotalCount() == 0) {
      return new Percentiles(0, 0, 0, 0, 0, 0, 0);
    }
    return new Percentiles(h.getTotalCount(), h.getValueAtPercentile(50), h.getValueAtPercentile(90),
        h.getValueAtPercentile(99), h.getValueAtPercentile(99.9), h.getValueAtPercentile(99.99), h.getMaxValue());
  }

  public long[] values() {
    return new long[] {p50, p90, p99, p999, p9999, max};
  }
}
