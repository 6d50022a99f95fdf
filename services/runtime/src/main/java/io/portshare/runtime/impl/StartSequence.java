package io.portshare.runtime.impl;

import io.micrometer.core.instrument.MeterRegistry;
import io.portshare.runtime.ServiceDescriptor;
import io.portshare.runtime.Settings;
import io.portshare.runtime.WarmUpExchange;
import io.portshare.runtime.config.RuntimeSettings;
import io.portshare.runtime.impl.mode.Machine;
import io.portshare.runtime.net.AcceptErrorHandler;
import io.portshare.runtime.net.Connections;
import io.portshare.runtime.net.InheritedSockets;
import io.portshare.runtime.net.Listeners;
import io.portshare.runtime.warmup.StartTimes;
import io.portshare.runtime.warmup.WarmUp;
import java.time.Duration;
import java.util.function.DoubleSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The steps of a start, in order: settle the plan, start the admin side, check the descriptors, lay
 * out and bind the instances, let the mode steer, warm up, and say ready. A stop asked for meanwhile
 * cuts it short between steps; what it got to stays readable for the drain.
 */
final class StartSequence {

  /** The runtime's lines, under the name they had before the start had a class of its own. */
  private static final Logger LOG = LoggerFactory.getLogger(ServiceRuntime.class);

  private final ServiceDescriptor descriptor;
  private final Settings settings;
  private final RuntimeSettings common;
  private final InheritedSockets inherited;
  private final MeterRegistry registry;
  private final Listeners listeners;
  private final Instances instances;
  private final AdminSide admin;
  private final StopRequest stopRequest;
  /** What this start runs: settled first, then carried out; replaced once if the mode falls back when bound. */
  private volatile StartPlan plan;
  /** The port the service listens on: the plan's, or the one the kernel chose for port 0. */
  private int port;
  private Connections connections;
  private StartTimes startTimes;
  private volatile Phase phase = Phase.STARTING;

  StartSequence(ServiceDescriptor descriptor, Settings settings, InheritedSockets inherited, MeterRegistry registry,
      Listeners listeners, Instances instances, AdminSide admin, StopRequest stopRequest) {
    this.descriptor = descriptor;
    this.settings = settings;
    this.common = RuntimeSettings.of(settings);
    this.inherited = inherited;
    this.registry = registry;
    this.listeners = listeners;
    this.instances = instances;
    this.admin = admin;
    this.stopRequest = stopRequest;
  }

  /** Runs the start to its end, or to where a stop asked for meanwhile cuts it; {@code drainSeconds} for /metrics. */
  void run(DoubleSupplier drainSeconds) {
    descriptor.validate(settings);
    plan = StartPlan.settle(common, inherited, Machine.HERE);
    if (!inherited.isEmpty()) {
      LOG.info("serving {} inherited listening socket(s) on port {} from {}", inherited.size(), inherited.port(),
          inherited.source());
    }
    Duration warmUpLimit = common.warmup();
    // The exchange the warm-up drives, or null when there is none (--warmup 0, or the service has none).
    WarmUpExchange warmUpExchange = warmUpLimit.isZero() ? null : descriptor.warmUp(settings).orElse(null);

    admin.start(plan, drainSeconds);
    DescriptorBudget.check(descriptor.name(), plan.instances());
    connections = new Connections(registry, descriptor.name(), plan.instances(), warmUpExchange != null);
    if (stopRequest.requested()) {
      return;
    }
    AcceptErrorHandler acceptErrors = new AcceptErrorHandler(descriptor.name(), connections::open);
    port = instances.listen(plan, connections, acceptErrors, warmUpExchange != null);
    StartPlan steered = plan.steered(listeners, port, registry, descriptor.name());
    if (steered != plan) {
      plan = steered;
      admin.planChanged(plan);
    }
    admin.watch(instances.verticles());
    long listeningMillis = StartTimes.sinceJvmStart();
    if (stopRequest.requested()) {
      return;
    }
    phase = Phase.WARMING_UP;
    WarmUp.Result warmed = null;
    if (warmUpExchange != null) {
      warmed = instances.warmUp(warmUpExchange, plan, port, warmUpLimit, stopRequest, connections::warmUpEnded);
    }
    if (stopRequest.requested()) {
      return;
    }
    startTimes = new StartTimes(listeningMillis, StartTimes.sinceJvmStart(), warmed);
    startTimes.register(registry, descriptor.name());
    phase = Phase.READY;
    admin.ready(true);
  }

  StartPlan plan() {
    return plan;
  }

  int port() {
    return port;
  }

  /** The service's connections, or null when the start stopped before it counted any. */
  Connections connections() {
    return connections;
  }

  StartTimes startTimes() {
    return startTimes;
  }

  Phase phase() {
    return phase;
  }
}
