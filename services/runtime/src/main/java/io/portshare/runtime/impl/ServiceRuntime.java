package io.portshare.runtime.impl;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.portshare.runtime.Option;
import io.portshare.runtime.ServiceDescriptor;
import io.portshare.runtime.ServiceVerticle;
import io.portshare.runtime.Settings;
import io.portshare.runtime.StartException;
import io.portshare.runtime.UsageException;
import io.portshare.runtime.WarmUpExchange;
import io.portshare.runtime.config.RuntimeSettings;
import io.portshare.runtime.config.ScalingMode;
import io.portshare.runtime.impl.mode.Machine;
import io.portshare.runtime.net.AcceptErrorHandler;
import io.portshare.runtime.net.Connections;
import io.portshare.runtime.net.FileLimit;
import io.portshare.runtime.net.InheritedSockets;
import io.portshare.runtime.net.Listeners;
import io.portshare.runtime.warmup.StartTimes;
import io.portshare.runtime.warmup.WarmUp;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running service: its Vert.x instance(s) laid out by the scaling mode, its verticles, the
 * admin server, and the drain that stops them. Start it with {@link #start}; tests do the same
 * in-process.
 */
public final class ServiceRuntime {

  private static final Logger LOG = LoggerFactory.getLogger(ServiceRuntime.class);
  /** The fewest descriptors an instance takes to start: an epoll, an eventfd, a timerfd, a listener. */
  private static final int DESCRIPTORS_PER_INSTANCE = 4;
  /** How much longer than the drain timeout the verticles' drains may take to report back. */
  private static final Duration DRAIN_REPORT_WAIT = Duration.ofSeconds(2);
  /**
   * How long closing the service's Vert.x instances, then the admin's, may each take once drained:
   * nothing is left to finish then, so a close that takes longer is stuck, and the pod's grace
   * period must cover it (see {@link #waitsBeyondDrain}).
   */
  private static final Duration CLOSE_WAIT = Duration.ofSeconds(3);

  private final ServiceDescriptor descriptor;
  private final Settings settings;
  private final RuntimeSettings common;
  private final InheritedSockets inherited;
  private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private Connections connections;
  private final Listeners listeners = new Listeners();
  /** The Vert.x instances, verticles and contexts the plan lays out. */
  private final Instances instances;
  /** Health, readiness and metrics, on a Vert.x of their own. */
  private final AdminSide admin;
  /** What this start runs: settled first, then carried out; replaced once if pinned falls back when bound. */
  private volatile StartPlan plan;
  /** The port the service listens on: the plan's, or the one the kernel chose for port 0. */
  private int port;
  private volatile boolean stopped;
  /** The exchange the warm-up drives, or null when there is none (--warmup 0, or the service has none). */
  private WarmUpExchange warmUpExchange;
  private StartTimes startTimes;
  /** A stop asked for while starting: the start skips what is left (deploys, warm-up) and the caller stops it. */
  private final StopRequest stopRequest;
  /** How far the start got: "starting", "warming up" or "ready". */
  private volatile String phase = "starting";
  /** When the drain began (System.nanoTime), 0 before. */
  private volatile long drainStartedNanos;

  private ServiceRuntime(ServiceDescriptor descriptor, Settings settings, InheritedSockets inherited,
      StopRequest stopRequest) {
    this.descriptor = descriptor;
    this.settings = settings;
    this.common = RuntimeSettings.of(settings);
    this.inherited = inherited;
    this.stopRequest = stopRequest;
    // Before the admin side binds the first meter: the server meters' histogram filter must come first.
    VertxServerMeters serverMeters = common.vertxMetrics() ? new VertxServerMeters(registry, descriptor.name()) : null;
    this.admin = new AdminSide(descriptor.name(), common, registry, inherited);
    this.instances = new Instances(descriptor, settings, common, registry, listeners, serverMeters,
        admin::addReadinessCheck);
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
      rt.startAll();
    } catch (StartException | UsageException e) {
      rt.closeAll();
      throw e;
    } catch (RuntimeException e) {
      rt.closeAll();
      // Out of descriptors while making event loops (epoll_create1, eventfd) rather than while
      // listening: the same clear line as at a listen.
      throw StartFailures.outOfDescriptors(e, "cannot start " + descriptor.name()).orElseThrow(() -> e);
    }
    return rt;
  }

  private void startAll() {
    descriptor.validate(settings);
    plan = StartPlan.settle(common, inherited, Machine.HERE);
    if (!inherited.isEmpty()) {
      LOG.info("serving {} inherited listening socket(s) on port {} from {}", inherited.size(), inherited.port(),
          inherited.source());
    }
    Duration warmUpLimit = common.warmup();
    warmUpExchange = warmUpLimit.isZero() ? null : descriptor.warmUp(settings).orElse(null);

    admin.start(plan, () -> drainStartedNanos == 0 ? 0 : (System.nanoTime() - drainStartedNanos) / 1e9);

    // Each instance needs at least an epoll, an eventfd, a timerfd and a listening socket. Short of
    // those, say so now: further in, Vert.x and Netty meet the limit in places that log stack traces
    // (the hosts file, a bind's promise) before any clear error could be given.
    if (!FileLimit.fits(plan.instances() * DESCRIPTORS_PER_INSTANCE)) {
      throw new StartException("cannot start " + descriptor.name() + ": out of file descriptors (open files limit "
          + FileLimit.describe() + "); raise the limit (ulimit -n) or lower --instances", null);
    }
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
    phase = "warming up";
    WarmUp.Result warmed = null;
    if (warmUpExchange != null) {
      warmed = instances.warmUp(warmUpExchange, plan, port, warmUpLimit, stopRequest, connections::warmUpEnded);
    }
    if (stopRequest.requested()) {
      return;
    }
    startTimes = new StartTimes(listeningMillis, StartTimes.sinceJvmStart(), warmed);
    startTimes.register(registry, descriptor.name());
    phase = "ready";
    admin.ready(true);
  }

  /**
   * Graceful stop: readiness turns false, listeners close, open connections finish up to the
   * timeout, then every Vert.x closes. Blocks until done; safe to call twice.
   */
  public void stop(Duration drainTimeout) {
    synchronized (this) {
      if (stopped) {
        return;
      }
      stopped = true;
    }
    drainStartedNanos = System.nanoTime();
    admin.ready(false);
    if (!phase.equals("ready")) {
      LOG.info("stopped while {}: {}", phase, listeners.isEmpty() ? "nothing was listening, nothing to drain"
          : "draining what it accepted meanwhile");
    }
    LOG.info("draining: {} connections open, timeout {} ms", connections.open(), drainTimeout.toMillis());
    // Before any server's own shutdown, and with empty accept queues: see Listeners. Connections
    // already accepted are served meanwhile; they are told to finish once the listeners are closed.
    long t0 = System.nanoTime();
    listeners.closeAll(drainTimeout);
    // --drain-timeout bounds the whole drain, the wait for the accept queues included.
    Duration left = drainTimeout.minusNanos(System.nanoTime() - t0);
    Duration connectionsTimeout = left.isNegative() ? Duration.ZERO : left;
    instances.drain(connectionsTimeout, DRAIN_REPORT_WAIT);
    closeAll();
    LOG.info("drained: {} connections were cut at the timeout", connections.open());
  }

  private void closeAll() {
    instances.close(CLOSE_WAIT);
    try {
      admin.close(CLOSE_WAIT);
    } catch (Exception e) {
      LOG.warn("closing admin server: {}", e.toString());
    }
  }

  /**
   * The longest a stop can take beyond {@code --drain-timeout} (which already bounds the wait for
   * the accept queues): the drains' report and the two closes. A pod's terminationGracePeriodSeconds
   * must cover its preStop, the drain timeout and this.
   */
  public static Duration waitsBeyondDrain() {
    return DRAIN_REPORT_WAIT.plus(CLOSE_WAIT).plus(CLOSE_WAIT);
  }

  /** The port the service listens on (the real one when 0 was asked for). */
  public int port() {
    return port;
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
    return plan;
  }

  /** The scaling mode that runs: the plan's. */
  public ScalingMode mode() {
    return plan.mode().name();
  }

  /** The transport that runs, by name: the plan's. */
  public String transport() {
    return plan.transportName();
  }

  /**
   * True once the start ran to its end (warmed up, admin ready); false when a stop asked for while
   * starting cut it short.
   */
  public boolean ready() {
    return phase.equals("ready");
  }

  /** Service event loops that have not run for --liveness-timeout: what /health/live fails on. */
  public int eventLoopsStuck() {
    return admin.stuckLoops();
  }

  /** How far the start got: "starting", "warming up" or "ready". */
  String phase() {
    return phase;
  }

  /** When the service listened and when it became ready, and what its warm-up did (null unless ready). */
  public StartTimes startTimes() {
    return startTimes;
  }

  public PrometheusMeterRegistry registry() {
    return registry;
  }
}
