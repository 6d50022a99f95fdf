package io.portshare.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** One cell of a table: a column measured for one row, once per round. */
public record ResultCell(String column, List<Measurement> rounds) {

  public ResultCell {
    rounds = List.copyOf(rounds);
  }

  /** Median operations/s over the rounds (the mean of the middle two for an even count). */
  public double median() {
    return median(rounds.stream().mapToDouble(Measurement::perSecond).toArray());
  }

  public double min() {
    return rounds.stream().mapToDouble(Measurement::perSecond).min().orElse(0);
  }

  public double max() {
    return rounds.stream().mapToDouble(Measurement::perSecond).max().orElse(0);
  }

  /** Half the min-max range relative to the median, in percent: how much the rounds disagree. */
  public double spreadPercent() {
    double m = median();
    return m <= 0 ? 0 : (max() - min()) / 2 / m * 100;
  }

  /** The round whose operations/s is the median one (lower middle for an even count): its latency and CPU are shown. */
  public Measurement medianRound() {
    if (rounds.isEmpty()) {
      return null;
    }
    List<Measurement> sorted = new ArrayList<>(rounds);
    sorted.sort(Comparator.comparingDouble(Measurement::perSecond));
    return sorted.get((sorted.size() - 1) / 2);
  }

  public LatencySummary latency() {
    Measurement r = medianRound();
    return r == null ? LatencySummary.EMPTY : r.latency();
  }

  /** Median client CPU per operation over the rounds, microseconds (NaN if unknown). */
  public double clientCpuMicrosPerOp() {
    return median(rounds.stream().mapToDouble(Measurement::clientCpuMicrosPerOp).toArray());
  }

  /** Median server CPU per operation over the rounds, microseconds (NaN if unknown). */
  public double serverCpuMicrosPerOp() {
    return median(rounds.stream().mapToDouble(Measurement::serverCpuMicrosPerOp).toArray());
  }

  /** The client bound the figure in at least half of the rounds: the cell measures the client. */
  public boolean clientBound() {
    long bound = rounds.stream().filter(Measurement::clientBound).count();
    return !rounds.isEmpty() && bound * 2 >= rounds.size();
  }

  /** Errors of all rounds together, by kind. */
  public Map<String, Long> errors() {
    Map<String, Long> all = new TreeMap<>();
    for (Measurement r : rounds) {
      r.errors().forEach((k, v) -> all.merge(k, v, Long::sum));
    }
    return all;
  }

  public long errorCount() {
    return errors().values().stream().mapToLong(Long::longValue).sum();
  }

  /** The median of the values that are numbers (NaN if none is). */
  static double median(double[] values) {
    double[] v = Arrays.stream(values).filter(d -> !Double.isNaN(d)).sorted().toArray();
    int n = v.length;
    if (n == 0) {
      return Double.NaN;
    }
    return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  }
}
