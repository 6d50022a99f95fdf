package io.portshare.runtime.warmup;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.lang.management.ManagementFactory;

/**
 * How long the process took from JVM start until every instance listened (ready, had there been
 * no warm-up) and until it was ready (warm-up included), and what the warm-up did; for the banner
 * and {@code /metrics}.
 */
public final class StartTimes {

  private final long listeningMillis;
  private final long readyMillis;
  private final WarmUp.Result warmUp;

  public StartTimes(long listeningMillis, long readyMillis, WarmUp.Result warmUp) {
    this.listeningMillis = listeningMillis;
    this.readyMillis = readyMillis;
    this.warmUp = warmUp;
  }

  public static long sinceJvmStart() {
    return ManagementFactory.getRuntimeMXBean().getUptime();
  }

  /** From JVM start until every instance listened: start-to-ready without warm-up. */
  public long listeningMillis() {
    return listeningMillis;
  }

  /** From JVM start until ready, warm-up included. */
  public long readyMillis() {
    return readyMillis;
  }

  /** Whether a warm-up ran. */
  public boolean warmedUp() {
    return warmUp != null;
  }

  /** Warm-up exchanges answered (0 without warm-up). */
  public long warmUpExchanges() {
    return warmUp == null ? 0 : warmUp.answered();
  }

  /** How the warm-up ended: settled, bound (the --warmup limit) or failing; "off" without one. */
  public String warmUpEnded() {
    return warmUp == null ? "off" : warmUp.ended();
  }

  public void register(MeterRegistry registry, String service) {
    Gauge.builder("portshare.start.seconds", () -> listeningMillis / 1000.0)
        .description("From JVM start until every instance listened (until=listening: ready without warm-up) "
            + "and until ready (until=ready: warm-up included)")
        .tag("service", service).tag("until", "listening").register(registry);
    Gauge.builder("portshare.start.seconds", () -> readyMillis / 1000.0)
        .description("From JVM start until every instance listened (until=listening: ready without warm-up) "
            + "and until ready (until=ready: warm-up included)")
        .tag("service", service).tag("until", "ready").register(registry);
    Gauge.builder("portshare.warmup.exchanges", () -> warmUpExchanges())
        .description("Warm-up exchanges before ready, by outcome (not in the service's request counts)")
        .tag("service", service).tag("outcome", "answered").register(registry);
    Gauge.builder("portshare.warmup.exchanges", () -> warmUp == null ? 0 : warmUp.failed())
        .description("Warm-up exchanges before ready, by outcome (not in the service's request counts)")
        .tag("service", service).tag("outcome", "failed").register(registry);
  }

  /** For the banner: "start-to-ready 9.8 s with warm-up (...), 1.1 s without". */
  public String describe() {
    if (warmUp == null) {
      return String.format("start-to-ready %.1f s (no warm-up)", listeningMillis / 1000.0);
    }
    return String.format("start-to-ready %.1f s with warm-up, %.1f s without (warm-up %.1f s: %d exchanges,"
        + " at least %d connections per instance, %d failed, %s)", readyMillis / 1000.0, listeningMillis / 1000.0,
        warmUp.took().toMillis() / 1000.0, warmUp.answered(), warmUp.minPerInstance(), warmUp.failed(), warmUp.ended());
  }
}
