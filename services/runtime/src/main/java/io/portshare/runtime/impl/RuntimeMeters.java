package io.portshare.runtime.impl;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.portshare.runtime.admin.EventLoopBeats;
import io.portshare.runtime.net.ListenOverflows;
import java.time.Duration;
import java.util.function.DoubleSupplier;

/**
 * The runtime's own meters on {@code /metrics}: the JVM's, what runs ({@code portshare_info}), stuck
 * event loops and the drain. No Vert.x instance runs the metrics SPI unless {@code --vertx-metrics}
 * asks for it ({@link VertxServerMeters}): it puts a per-request timer on every hot path. Services
 * count what matters themselves, cheaply, per connection or per read.
 */
final class RuntimeMeters {

  private final MeterRegistry registry;
  private final String service;
  private final boolean vertxMetrics;

  RuntimeMeters(MeterRegistry registry, String service, boolean vertxMetrics) {
    this.registry = registry;
    this.service = service;
    this.vertxMetrics = vertxMetrics;
  }

  /** The JVM's and the kernel's meters: memory, GC, threads, CPU, descriptors, uptime, listen overflows. */
  void bindJvm() {
    new JvmMemoryMetrics().bindTo(registry);
    new JvmGcMetrics().bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    new FileDescriptorMetrics().bindTo(registry);
    new UptimeMetrics().bindTo(registry);
    ListenOverflows.register(registry);
  }

  /** {@code portshare_info}: what {@code plan} runs; a plan that changes once bound replaces it. */
  void info(StartPlan plan) {
    registry.find("portshare.info").meters().forEach(registry::remove);
    Gauge.builder("portshare.info", () -> 1)
        .description("What runs: service, version, scaling mode, transport, channels, instances, Vert.x's server meters")
        .tag("service", service)
        .tag("version", Version.get())
        .tag("mode", plan.mode().label())
        .tag("transport", plan.transportName())
        .tag("channel", plan.channelName())
        .tag("instances", Integer.toString(plan.instances()))
        .tag("vertx_metrics", vertxMetrics ? "on" : "off")
        .register(registry);
  }

  /** Service event loops that have not run for --liveness-timeout: what /health/live fails on. */
  void stuckLoops(EventLoopBeats beats) {
    Gauge.builder("portshare.event.loops.stuck", beats, b -> b.stale().size())
        .description("Service event loops that have not run for --liveness-timeout (what /health/live fails on)")
        .tag("service", service)
        .register(registry);
  }

  /**
   * How long the drain has run (0 before it starts) and its bound: a drain near its bound with
   * connections still open is one about to cut them. Read while the process drains, since its admin
   * port answers until the end.
   */
  void drain(DoubleSupplier drainSeconds, Duration timeout) {
    Gauge.builder("portshare.drain.seconds", drainSeconds::getAsDouble)
        .description("How long the drain has run; 0 while not draining")
        .tag("service", service)
        .register(registry);
    Gauge.builder("portshare.drain.timeout.seconds", () -> timeout.toMillis() / 1000.0)
        .description("--drain-timeout: the longest a drain waits for connections to finish")
        .tag("service", service)
        .register(registry);
  }
}
