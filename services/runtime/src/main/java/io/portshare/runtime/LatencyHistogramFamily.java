package io.portshare.runtime;

import io.prometheus.metrics.model.registry.Collector;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The event loops' {@link LatencyHistogram}s of one name, as one Prometheus histogram family: the
 * collector the registry behind {@code /metrics} asks at each scrape. Micrometer's own histograms
 * cannot be fed from plain cells, and the Prometheus registry under it takes collectors of any kind;
 * it refuses two collectors of one name, hence one family per name, shared by the loops.
 */
final class LatencyHistogramFamily implements Collector {

  /** The families of each registry; weak, so a runtime's registry goes when the runtime does. */
  private static final Map<PrometheusRegistry, Map<String, LatencyHistogramFamily>> FAMILIES = new WeakHashMap<>();

  private record Member(Labels labels, LatencyHistogram histogram) {}

  private static final double[] UPPER_BOUNDS = upperBounds();

  private final String name;
  private final String help;
  private final List<Member> members = new CopyOnWriteArrayList<>();

  private LatencyHistogramFamily(String name, String help) {
    this.name = name;
    this.help = help;
  }

  private static double[] upperBounds() {
    double[] bounds = new double[LatencyHistogram.BOUNDS_SECONDS.length + 1];
    System.arraycopy(LatencyHistogram.BOUNDS_SECONDS, 0, bounds, 0, LatencyHistogram.BOUNDS_SECONDS.length);
    bounds[bounds.length - 1] = Double.POSITIVE_INFINITY;
    return bounds;
  }

  /** The family {@code name} of {@code registry}, registered there on first use. Loops start at once: locked. */
  static LatencyHistogramFamily of(PrometheusRegistry registry, String name, String help) {
    synchronized (FAMILIES) {
      Map<String, LatencyHistogramFamily> families = FAMILIES.computeIfAbsent(registry, r -> new HashMap<>());
      LatencyHistogramFamily family = families.get(name);
      if (family == null) {
        family = new LatencyHistogramFamily(name, help);
        registry.register(family);
        families.put(name, family);
      }
      return family;
    }
  }

  /** Renders {@code histogram} with these labels (name, value pairs), in place of one with the same labels. */
  void add(String[] labels, LatencyHistogram histogram) {
    Labels l = Labels.of(labels);
    synchronized (members) {
      members.removeIf(m -> m.labels().equals(l));
      members.add(new Member(l, histogram));
    }
  }

  @Override
  public String getPrometheusName() {
    return name;
  }

  @Override
  public MetricSnapshot collect() {
    HistogramSnapshot.Builder snapshot = HistogramSnapshot.builder().name(name).help(help);
    for (Member m : members) {
      long[] counts = m.histogram().bucketCounts();
      snapshot.dataPoint(HistogramSnapshot.HistogramDataPointSnapshot.builder()
          .labels(m.labels())
          .classicHistogramBuckets(ClassicHistogramBuckets.of(UPPER_BOUNDS, counts))
          .sum(m.histogram().sumNanos() / 1e9)
          .build());
    }
    return snapshot.build();
  }
}
