package io.portshare.runtime.impl;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;
import io.vertx.core.VertxBuilder;
import io.vertx.core.VertxOptions;
import io.vertx.micrometer.MetricsDomain;
import io.vertx.micrometer.MicrometerMetricsFactory;
import io.vertx.micrometer.MicrometerMetricsOptions;
import java.time.Duration;
import java.util.EnumSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

/**
 * {@code --vertx-metrics}: vertx-micrometer-metrics' HTTP and TCP server meters on the registry
 * {@code /metrics} scrapes ({@code vertx_http_server_requests_total}, the
 * {@code vertx_http_server_response_time_seconds} histogram, {@code vertx_net_server_*}), for services
 * that listen with Vert.x's {@code HttpServer} or {@code NetServer}. A pipeline of the service's own
 * makes no Vert.x connection, so it has none of these.
 *
 * <p>Off, no service Vert.x is given a metrics factory or enabled metrics options, so Vert.x makes no
 * metrics object and its servers run without the SPI, as they always did. On, every request costs
 * a timer sample and a few meter look-ups: the price {@link RuntimeMeters} explains, paid only where
 * asked for. The admin Vert.x never has it, so scrapes are not counted.
 */
final class VertxServerMeters {

  /** The categories kept: the servers'. Clients (the warm-up's too), pools and the event bus stay off. */
  private static final EnumSet<MetricsDomain> KEPT = EnumSet.of(MetricsDomain.HTTP_SERVER, MetricsDomain.NET_SERVER);
  /** The response-time histogram's range: below 100 us and above 10 s its buckets would say nothing more. */
  private static final Duration FASTEST = Duration.ofNanos(100_000);
  private static final Duration SLOWEST = Duration.ofSeconds(10);
  /**
   * vertx-micrometer-metrics keeps its backends in a static map by registry name, and the first
   * Vert.x to close removes its entry: each runtime has a name of its own, so that two runtimes in
   * one JVM (tests, embedders) never write to each other's registry.
   */
  private static final AtomicInteger RUNTIMES = new AtomicInteger();

  private final MeterRegistry registry;
  private final String registryName;

  /** Readies {@code registry}: call before any meter is registered on it, as Micrometer wants of filters. */
  VertxServerMeters(MeterRegistry registry, String service) {
    this.registry = registry;
    this.registryName = "portshare-" + service + "-" + RUNTIMES.incrementAndGet();
    registry.config().meterFilter(responseTimeHistogram());
  }

  /** Gives {@code builder}, made with {@code options}, the server meters. */
  VertxBuilder apply(VertxBuilder builder, VertxOptions options) {
    MicrometerMetricsOptions metrics = new MicrometerMetricsOptions()
        .setEnabled(true)
        .setRegistryName(registryName)
        .setDisabledMetricsCategories(EnumSet.complementOf(KEPT).stream()
            .map(MetricsDomain::toCategory).collect(Collectors.toSet()));
    options.setMetricsOptions(metrics);
    return builder.with(options).withMetrics(new MicrometerMetricsFactory(registry));
  }

  /**
   * The servers' response times as Prometheus histograms (buckets), which add up across instances
   * and pods where summaries do not; every other meter of the registry is left as it is.
   */
  private static MeterFilter responseTimeHistogram() {
    return new MeterFilter() {
      @Override
      public DistributionStatisticConfig configure(Meter.Id id, DistributionStatisticConfig config) {
        if (id.getType() != Meter.Type.TIMER || !isServerMeter(id.getName())) {
          return config;
        }
        return DistributionStatisticConfig.builder()
            .percentilesHistogram(true)
            .minimumExpectedValue((double) FASTEST.toNanos())
            .maximumExpectedValue((double) SLOWEST.toNanos())
            .build()
            .merge(config);
      }
    };
  }

  private static boolean isServerMeter(String name) {
    return KEPT.stream().anyMatch(domain -> name.startsWith(domain.getPrefix()));
  }
}
