package io.portshare.kit;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A strict reader of the Prometheus text exposition format (version 0.0.4): every line must be a
 * comment, blank, or {@code name{label="value",...} number [timestamp]}; anything else fails.
 */
public final class PrometheusText {

  /** One sample line. */
  public record Sample(String name, Map<String, String> labels, double value) {}

  /**
   * One series of a histogram: the upper bounds of its buckets (+Inf last) and their cumulative
   * counts, its {@code _count} and {@code _sum}.
   */
  public record Histogram(double[] bounds, double[] buckets, double count, double sum) {}

  private static final Pattern SAMPLE =
      Pattern.compile("([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{(.*)\\})? (\\S+)( -?\\d+)?");
  private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\",?");

  private final List<Sample> samples;

  private PrometheusText(List<Sample> samples) {
    this.samples = samples;
  }

  public static PrometheusText parse(String text) {
    List<Sample> out = new ArrayList<>();
    int n = 0;
    for (String line : text.split("\n")) {
      n++;
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      Matcher m = SAMPLE.matcher(line);
      if (!m.matches()) {
        throw new IllegalArgumentException("line " + n + " is not Prometheus text: " + line);
      }
      Map<String, String> labels = new LinkedHashMap<>();
      if (m.group(3) != null && !m.group(3).isEmpty()) {
        Matcher l = LABEL.matcher(m.group(3));
        int end = 0;
        while (l.find() && l.start() == end) {
          labels.put(l.group(1), l.group(2));
          end = l.end();
        }
        if (end != m.group(3).length()) {
          throw new IllegalArgumentException("line " + n + " has bad labels: " + line);
        }
      }
      double value;
      String v = m.group(4);
      switch (v) {
        case "+Inf":
          value = Double.POSITIVE_INFINITY;
          break;
        case "-Inf":
          value = Double.NEGATIVE_INFINITY;
          break;
        case "NaN":
          value = Double.NaN;
          break;
        default:
          value = Double.parseDouble(v);
      }
      out.add(new Sample(m.group(1), labels, value));
    }
    return new PrometheusText(out);
  }

  public List<Sample> samples() {
    return samples;
  }

  public List<Sample> named(String name) {
    return samples.stream().filter(s -> s.name().equals(name)).toList();
  }

  /** The value of the one sample with this name whose labels include the given pairs. */
  public Optional<Double> value(String name, String... labelPairs) {
    return matching(name, labelPairs).map(Sample::value).findFirst();
  }

  /** The sum over every sample with this name whose labels include the given pairs (if any). */
  public double sum(String name, String... labelPairs) {
    return matching(name, labelPairs).mapToDouble(Sample::value).sum();
  }

  private Stream<Sample> matching(String name, String... labelPairs) {
    return named(name).stream().filter(s -> {
      for (int i = 0; i + 1 < labelPairs.length; i += 2) {
        if (!labelPairs[i + 1].equals(s.labels().get(labelPairs[i]))) {
          return false;
        }
      }
      return true;
    });
  }

  /**
   * The series of histogram {@code name} whose labels include the given pairs, read as Prometheus
   * reads it, and refused (IllegalStateException) unless consistent: buckets in order of their
   * bounds, ending at +Inf, each counting at least what the one before does, +Inf equal to
   * {@code _count}, and a {@code _count} and {@code _sum} present.
   */
  public Histogram histogram(String name, String... labelPairs) {
    List<Sample> samples = matching(name + "_bucket", labelPairs).toList();
    double[] bounds = new double[samples.size()];
    double[] buckets = new double[samples.size()];
    for (int i = 0; i < samples.size(); i++) {
      String le = samples.get(i).labels().get("le");
      bounds[i] = le == null ? Double.NaN : le.equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(le);
      buckets[i] = samples.get(i).value();
      if (!(i == 0 ? bounds[i] > 0 : bounds[i] > bounds[i - 1]) || (i > 0 && buckets[i] < buckets[i - 1])) {
        throw new IllegalStateException(name + ": bucket le=" + le + " (" + buckets[i] + ") out of order");
      }
    }
    double count = value(name + "_count", labelPairs)
        .orElseThrow(() -> new IllegalStateException(name + ": no _count"));
    double sum = value(name + "_sum", labelPairs).orElseThrow(() -> new IllegalStateException(name + ": no _sum"));
    if (samples.isEmpty() || bounds[bounds.length - 1] != Double.POSITIVE_INFINITY
        || buckets[buckets.length - 1] != count) {
      throw new IllegalStateException(name + ": the +Inf bucket is missing or is not _count " + count);
    }
    return new Histogram(bounds, buckets, count, sum);
  }
}
