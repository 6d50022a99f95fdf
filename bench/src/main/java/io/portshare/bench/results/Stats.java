package io.portshare.bench.results;

import java.util.Arrays;

/** Median and spread of a few rounds: what every table reports instead of a single run. */
public final class Stats {

  private Stats() {}

  /** The middle value, or the mean of the middle two for an even count; NaN for none. */
  public static double median(double[] values) {
    if (values.length == 0) {
      return Double.NaN;
    }
    double[] v = values.clone();
    Arrays.sort(v);
    int n = v.length;
    return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  }

  /** Half the min-max range relative to the median, in percent: how much the rounds disagree. */
  public static double spreadPercent(double[] values) {
    double m = median(values);
    if (values.length == 0 || !(m > 0)) {
      return 0;
    }
    double min = Arrays.stream(values).min().orElse(0);
    double max = Arrays.stream(values).max().orElse(0);
    return (max - min) / 2 / m * 100;
  }
}
