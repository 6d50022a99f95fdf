package io.portshare.bench;

import java.util.EnumMap;
import java.util.Map;
import org.HdrHistogram.Histogram;

/** What a load run measured: transactions in the window, their latency, and errors by kind. */
public record LoadResult(long transactions, double seconds, LatencySummary latency, Map<ErrorKind, Long> errors) {

  public double transPerSecond() {
    return seconds <= 0 ? 0 : transactions / seconds;
  }

  public long errorCount() {
    return errors.values().stream().mapToLong(Long::longValue).sum();
  }

  static LoadResult merge(Iterable<LoopStats> loops, double seconds) {
    Histogram all = LatencySummary.newHistogram();
    long tx = 0;
    Map<ErrorKind, Long> errors = new EnumMap<>(ErrorKind.class);
    for (LoopStats s : loops) {
      tx += s.transactions;
      all.add(s.latency);
      for (ErrorKind k : ErrorKind.values()) {
        long n = s.errors[k.ordinal()];
        if (n > 0) {
          errors.merge(k, n, Long::sum);
        }
      }
    }
    return new LoadResult(tx, seconds, LatencySummary.of(all), errors);
  }
}
