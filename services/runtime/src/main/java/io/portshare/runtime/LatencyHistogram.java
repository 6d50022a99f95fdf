package io.portshare.runtime;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
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
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A latency histogram of one event loop with fixed buckets, rendered on {@code /metrics} as a
 * Prometheus histogram ({@code _bucket{le=...}}, {@code _sum}, {@code _count}). Only the loop that owns
 * it records; recording allocates nothing and takes no lock or atomic read-modify-write: a scan of
 * the bounds and two stores.
 *
 * <p>Why not a Micrometer {@code Timer} with service level objectives: its record() adds to a
 * LongAdder and a DoubleAdder, updates a time-window max (reading the wall clock and rotating) and
 * increments an AtomicLongArray, several atomics per answer where the services count in plain
 * fields; and it renders a summary's {@code _max} gauge besides.
 *
 * <p>The scrape reads from another thread. Each cell is written with an opaque store and read with
 * an opaque load: on 64-bit hardware as cheap as a plain one, but never torn (a plain long may be,
 * JLS 17.7) and never seen going backwards, so a bucket's count only grows from one scrape to the
 * next. Cells are not read at one instant: the scrape derives {@code _count} from the bucket counts
 * it read, so buckets, {@code +Inf} and {@code _count} always agree, and {@code _sum} may be a few
 * observations ahead or behind, which a rate over a minute does not see.
 */
public final class LatencyHistogram {

  /**
   * Upper bounds, in seconds: 25 µs to 5 s in a 1-2.5-5 series (the Prometheus client's default
   * series, extended down). The low end separates loopback work (an echo is answered in tens of
   * microseconds) from a datacenter round trip's worth of queueing (hundreds); the high end catches
   * an overloaded or stalled loop up to the seconds clients time out in. Two or three buckets per
   * decade keep a quantile read from them within a factor of about two, at 17 series per loop.
   */
  public static final double[] BOUNDS_SECONDS = {0.000025, 0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025,
      0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5};
  private static final long[] BOUNDS_NANOS = new long[BOUNDS_SECONDS.length];
  /** The cell after the buckets and +Inf: the sum of the values, in nanoseconds. */
  private static final int SUM = BOUNDS_SECONDS.length + 1;

  static {
    for (int i = 0; i < BOUNDS_SECONDS.length; i++) {
      BOUNDS_NANOS[i] = Math.round(BOUNDS_SECONDS[i] * 1e9);
    }
  }

  /** Per bucket the count of values in it (not cumulative), then +Inf's, then the sum. */
  private final AtomicLongArray cells = new AtomicLongArray(BOUNDS_SECONDS.length + 2);

  /** A histogram in no registry: for warm-up traffic, which the runtime counts apart. */
  public LatencyHistogram() {}

  /**
   * A histogram of one event loop, rendered as {@code name} with these label names and values
   * (pairs: {@code "service", "static", "loop", "0"}); every loop's histogram of one name is one
   * metric family. A registry that is not the runtime's Prometheus one (a test's) renders nothing.
   * Registering the same labels again replaces the histogram rendered.
   */
  public static LatencyHistogram register(MeterRegistry registry, String name, String help, String... labels) {
    LatencyHistogram h = new LatencyHistogram();
    if (registry instanceof PrometheusMeterRegistry prometheus) {
      Family.of(prometheus.getPrometheusRegistry(), name, help).add(labels, h);
    }
    return h;
  }

  /** One value, in nanoseconds. On the owning event loop only. */
  public void record(long nanos) {
    record(nanos, 1);
  }

  /** {@code observations} values of {@code nanos} each (frames answered together). On the owning loop only. */
  public void record(long nanos, long observations) {
    int i = 0;
    while (i < BOUNDS_NANOS.length && nanos > BOUNDS_NANOS[i]) {
      i++;
    }
    cells.setOpaque(i, cells.getPlain(i) + observations);
    cells.setOpaque(SUM, cells.getPlain(SUM) + nanos * observations);
  }

  /** The count of each bucket, not cumulative, +Inf's last; from any thread. */
  long[] bucketCounts() {
    long[] counts = new long[BOUNDS_SECONDS.length + 1];
    for (int i = 0; i < counts.length; i++) {
      counts[i] = cells.getOpaque(i);
    }
    return counts;
  }

  /** The sum of the values recorded, in nanoseconds; from any thread. */
  long sumNanos() {
    return cells.getOpaque(SUM);
  }

  /** Values recorded so far; from any thread. */
  public long count() {
    long n = 0;
    for (long c : bucketCounts()) {
      n += c;
    }
    return n;
  }

  /**
   * The event loops' {@link LatencyHistogram}s of one name, as one Prometheus histogram family: the
   * collector the registry behind {@code /metrics} asks at each scrape. Micrometer's own histograms
   * cannot be fed from plain cells, and the Prometheus registry under it takes collectors of any kind;
   * it refuses two collectors of one name, hence one family per name, shared by the loops.
   */
  private static final class Family implements Collector {

    /** The families of each registry; weak, so a runtime's registry goes when the runtime does. */
    private static final Map<PrometheusRegistry, Map<String, Family>> FAMILIES = new WeakHashMap<>();

    private record Member(Labels labels, LatencyHistogram histogram) {}

    private static final double[] UPPER_BOUNDS = upperBounds();

    private final String name;
    private final String help;
    private final List<Member> members = new CopyOnWriteArrayList<>();

    private Family(String name, String help) {
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
    static Family of(PrometheusRegistry registry, String name, String help) {
      synchronized (FAMILIES) {
        Map<String, Family> families = FAMILIES.computeIfAbsent(registry, r -> new HashMap<>());
        Family family = families.get(name);
        if (family == null) {
          family = new Family(name, help);
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
}
