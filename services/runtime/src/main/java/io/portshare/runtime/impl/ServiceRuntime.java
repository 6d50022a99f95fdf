package io.portshare.runtime.impl;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.portshare.runtime.Option;
import io.portshare.runtime.ServiceDescriptor;
import io.portshare.runtime.ServiceVerticle;
import io.portshare.runtime.Settings;
import io.portshare.runtime.StartException;
import io.portshare.runtime.UsageException;
import io.portshare.runtime.config.RuntimeSettings;
import io.portshare.runtime.config.ScalingMode;
import io.portshare.runtime.net.InheritedSockets;
import io.portshare.runtime.net.Listeners;
import io.portshare.runtime.warmup.StartTimes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A running service: its Vert.x instance(s) laid out by the scaling mode, its verticles, the admin
 * server, and the drain that stops them. Start it with {@link #start}; tests do the same in-process.
 * The steps of the start are {@link StartSequence}'s, those of the stop {@link Drain}'s.
 */
public final class ServiceRuntime {

  private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  /** The Vert.x instances, verticles and contexts the plan lays out. */
  private final Instances instances;
  /** Health, readiness and metrics, on a Vert.x of their own. */
  private final AdminSide admin;
  private final StartSequence start;
  private final Drain drain;

  private ServiceRuntime(ServiceDescriptor descriptor, Settings settings, InheritedSockets inherited,
      StopRequest stopRequest) {
    RuntimeSettings common = RuntimeSettings.of(settings);
    Listeners listeners = new Listeners();
    // Before the admin side binds the first meter: the server meters' histogram filter must come first.
    VertxServerMeters serverMeters = common.vertxMetrics() ? new VertxServerMeters(registry, descriptor.name()) : null;
    this.admin = new AdminSide(descriptor.name(), common, registry, inherited);
    this.instances = new Instances(descriptor, settings, common, registry, listeners, serverMeters,
        admin::addReadinessCheck);
    this.start = new StartSequence(descriptor, settings, inherited, registry, listeners, instances, admin, stopRequest);
    this.drain = new Drain(listeners, instances, admin, start);
  }

  /**
   * Starts a service in this JVM from command-line style flags (no environment, no signals):
   * how tests and embedders run one. Blocks until it listens and is ready. Without a
   * {@code --warmup} flag it starts cold ({@code --warmup 0}): a test JVM starts many servers.
   */
  public static ServiceRuntime start(ServiceDescriptor descriptor, String... flags) {
    List<String> all = new ArrayList<>(List.of(flags));
    if (all.stream().noneMatch(f -> f.equals("--warmup") || f.startsWith("--warmup="))) {
      all.add("--warmup=0");
    }
    return start(descriptor, Settings.resolve(options(descriptor), all, Map.of()));
  }

  /** Every option of a service: the runtime's, with the service's default ports, then the service's own. */
  public static List<Option> options(ServiceDescriptor descriptor) {
    return RuntimeSettings.options(descriptor);
  }

  /** Starts the service, binding its own sockets, and blocks until it listens and is ready. */
  public static ServiceRuntime start(ServiceDescriptor descriptor, Settings settings) {
    return start(descriptor, settings, InheritedSockets.none());
  }

  /**
   * Starts the service on {@code inherited} listening sockets (none: it binds its own) and blocks
   * until it listens and is ready.
   */
  public static ServiceRuntime start(ServiceDescriptor descriptor, Settings settings, InheritedSockets inherited) {
    return start(descriptor, settings, inherited, new StopRequest());
  }

  /**
   * As {@link #start(ServiceDescriptor, Settings, InheritedSockets)}, but a stop asked for meanwhile
   * cuts the start short: asked before the service listens, it deploys nothing; asked during the
   * warm-up, the warm-up ends at once. Either way the runtime returned is not ready, and
   * {@link #stop} then drains only what it accepted (nothing, if it never listened).
   */
  public static ServiceRuntime start(ServiceDescriptor descriptor, Settings settings, InheritedSockets inherited,
      StopRequest stopRequest) {
    ServiceRuntime rt = new ServiceRuntime(descriptor, settings, inherited, stopRequest);
    try {
      rt.start.run(rt.drain::seconds);
    } catch (StartException | UsageException e) {
      rt.drain.closeAll();
      throw e;
    } catch (RuntimeException e) {
      rt.drain.closeAll();
      // Out of descriptors while making event loops (epoll_create1, eventfd) rather than while
      // listening: the same clear line as at a listen.
      throw StartFailures.outOfDescriptors(e, "cannot start " + descriptor.name()).orElseThrow(() -> e);
    }
    return rt;
  }

  /**
   * Graceful stop: readiness turns false, listeners close, open connections finish up to the
   * timeout, then every Vert.x closes. Blocks until done; safe to call twice.
   */
  public void stop(Duration drainTimeout) {
    drain.run(drainTimeout);
  }

  /**
   * The longest a stop can take beyond {@code --drain-timeout} (which already bounds the wait for
   * the accept queues): the drains' report and the two closes. A pod's terminationGracePeriodSeconds
   * must cover its preStop, the drain timeout and this.
   */
  public static Duration waitsBeyondDrain() {
    return Drain.waitsBeyondDrain();
  }

  /** The port the service listens on (the real one when 0 was asked for). */
  public int port() {
    return start.port();
  }

  public int adminPort() {
    return admin.port();
  }

  /** The running verticles, one per instance. */
  List<ServiceVerticle> verticles() {
    return instances.verticles();
  }

  /** What this start runs, and why wherever it is not what the settings asked. */
  public StartPlan plan() {
    return start.plan();
  }

  /** The scaling mode that runs: the plan's. */
  public ScalingMode mode() {
    return plan().mode().name();
  }

  /** The transport that runs, by name: the plan's. */
  public String transport() {
    return plan().transportName();
  }

  /**
   * True once the start ran to its end (warmed up, admin ready); false when a stop asked for while
   * starting cut it short.
   */
  public boolean ready() {
    return start.phase() == Phase.READY;
  }

  /** Service event loops that have not run for --liveness-timeout: what /health/live fails on. */
  public int eventLoopsStuck() {
    return admin.stuckLoops();
  }

  /** When the service listened and when it became ready, and what its warm-up did (null unless ready). */
  public StartTimes startTimes() {
    return start.startTimes();
  }

  public PrometheusMeterRegistry registry() {
    return registry;
  }
}
