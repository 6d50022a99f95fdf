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
}
