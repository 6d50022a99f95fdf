package io.portshare.bench.load;

import org.HdrHistogram.Histogram;

/**
 * Latency percentiles of a run in microseconds, read from an HdrHistogram of microsecond values.
 * All zero when nothing was recorded.
 */
public record LatencySummary(long count, double mean, long p50, long p90, long p99, long p999, long max) {

  /** Microsecond values from 1 us to one hour, three significant digits (0.1% error). */
  public static Histogram newHistogram() {
    return new Histogram(1, 3_600_000_000L, 3);
  }

  public static final LatencySummary EMPTY = new LatencySummary(0, 0, 0, 0, 0, 0, 0);

  public static LatencySummary of(Histogram h) {
    if (h.getTotalCount() == 0) {
      return EMPTY;
    }
    return new LatencySummary(h.getTotalCount(), h.getMean(),
        h.getValueAtPercentile(50), h.getValueAtPercentile(90), h.getValueAtPercentile(99),
        h.getValueAtPercentile(99.9), h.getMaxValue());
  }

  /** Records a nanosecond interval as microseconds, clamped to what the histogram holds. */
  public static void record(Histogram h, long nanos) {
    long us = Math.max(1, nanos / 1000);
    h.recordValue(Math.min(us, h.getHighestTrackableValue()));
  }

  /** Percentile labels and values in the order the reports show them. */
  public long[] values() {
    return new long[] {p50, p90, p99, p999, max};
  }

  public static final String[] LABELS = {"p50", "p90", "p99", "p99.9", "max"};
}
