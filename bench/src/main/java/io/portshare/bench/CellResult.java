package io.portshare.bench;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** One cell of the table: a column measured for one row, once per round. */
public record CellResult(Column column, List<LoadResult> rounds) {

  public CellResult {
    rounds = List.copyOf(rounds);
  }

  /** Median trans/s over the rounds (the mean of the middle two for an even count). */
  public double medianTransPerSecond() {
    return median(rounds.stream().mapToDouble(LoadResult::transPerSecond).toArray());
  }

  public double minTransPerSecond() {
    return rounds.stream().mapToDouble(LoadResult::transPerSecond).min().orElse(0);
  }

  public double maxTransPerSecond() {
    return rounds.stream().mapToDouble(LoadResult::transPerSecond).max().orElse(0);
  }

  /** Half the min-max range relative to the median, in percent: how much the rounds disagree. */
  public double spreadPercent() {
    double m = medianTransPerSecond();
    return m <= 0 ? 0 : (maxTransPerSecond() - minTransPerSecond()) / 2 / m * 100;
  }

  /** The round whose trans/s is the median one (lower middle for an even count): its latency is shown. */
  public LoadResult medianRound() {
    if (rounds.isEmpty()) {
      return null;
    }
    List<LoadResult> sorted = new ArrayList<>(rounds);
    sorted.sort(Comparator.comparingDouble(LoadResult::transPerSecond));
    return sorted.get((sorted.size() - 1) / 2);
  }

  public LatencySummary latency() {
    LoadResult r = medianRound();
    return r == null ? LatencySummary.EMPTY : r.latency();
  }

  /** Errors of all rounds together. */
  public Map<ErrorKind, Long> errors() {
    Map<ErrorKind, Long> all = new EnumMap<>(ErrorKind.class);
    for (LoadResult r : rounds) {
      r.errors().forEach((k, v) -> all.merge(k, v, Long::sum));
    }
    return all;
  }

  public long errorCount() {
    return errors().values().stream().mapToLong(Long::longValue).sum();
  }

  static double median(double[] values) {
    if (values.length == 0) {
      return 0;
    }
    double[] v = values.clone();
    java.util.Arrays.sort(v);
    int n = v.length;
    return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  }
}
