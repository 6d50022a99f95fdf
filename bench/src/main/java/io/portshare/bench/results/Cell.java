package io.portshare.bench.results;

import java.util.Arrays;
import java.util.List;

/** One column of one row, measured once per round. */
public record Cell(String column, List<Round> rounds) {

  public Cell {
    rounds = List.copyOf(rounds);
  }

  /** The figures of a metric over the rounds that measured it. */
  public double[] values(String key) {
    return rounds.stream().mapToDouble(r -> r.value(key)).filter(v -> !Double.isNaN(v)).toArray();
  }

  public double median(String key) {
    return Stats.median(values(key));
  }

  public double min(String key) {
    return Arrays.stream(values(key)).min().orElse(Double.NaN);
  }

  public double max(String key) {
    return Arrays.stream(values(key)).max().orElse(Double.NaN);
  }

  public double spreadPercent(String key) {
    return Stats.spreadPercent(values(key));
  }

  public long errors() {
    return rounds.stream().mapToLong(Round::errors).sum();
  }

  /** True when at least half the rounds were limited by the load generator: the cell says more about the client. */
  public boolean clientBound() {
    long bound = rounds.stream().filter(Round::clientBound).count();
    return !rounds.isEmpty() && bound * 2 >= rounds.size();
  }
}
