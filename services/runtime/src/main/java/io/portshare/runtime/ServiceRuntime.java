package io.portshare.runtime;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.portshare.runtime.admin.AdminServer;
import io.portshare.runtime.admin.EventLoopBeats;
import io.portshare.runtime.config.Option;
import io.portshare.runtime.config.RuntimeSettings;
import io.portshare.runtime.config.ScalingMode;
import io.portshare.runtime.config.Settings;
import io.portshare.runtime.config.UsageException;
import io.portshare.runtime.net.AcceptErrorHandler;
import io.portshare.runtime.net.Connections;
import io.portshare.runtime.net.FileLimit;
import io.portshare.runtime.net.InheritedSockets;
import io.portshare.runtime.net.ListenOverflows;
import io.portshare.runtime.net.OwnPipelines;
import io.portshare.runtime.net.Listeners;
import io.portshare.runtime.net.PinnedMode;
import io.portshare.runtime.net.RuntimeTransport;
import io.portshare.runtime.warmup.StartTimes;
import io.portshare.runtime.warmup.WarmUp;
import io.portshare.runtime.warmup.WarmUpExchange;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.net.NetServerOptions;
import io.vertx.core.net.SocketAddress;
import io.vertx.core.transport.Transport;
import java.net.BindException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running service: its Vert.x instance(s) laid out by the scaling mode, its verticles, the
 * admin server, and the drain that stops them. Start it with {@link #start}; tests do the same
 * in-process.
 */
public final class ServiceRuntime {

  private static final Logger LOG = LoggerFactory.getLogger(ServiceRuntime.class);
  private static final long START_TIMEOUT_SECONDS = 60;
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
  /** The listeners whose connections get the service's own pipeline ({@link ServiceContext#listen(NetServerOptions, ConnectionInitializer)}). */
  private final OwnPipelines ownPipelines = new OwnPipelines();
  private final List<Vertx> serviceVertx = new ArrayList<>();
  private final List<ServiceVerticle> verticles = new ArrayList<>();
  private final List<ServiceContext> contexts = new ArrayList<>();
  private Vertx adminVertx;
  private AdminServer admin;
  private EventLoopBeats beats;
  /** What this start runs: settled first, then carried out; replaced once if pinned falls back when bound. */
  private volatile StartPlan plan;
  /** The port the service listens on: the plan's, or the one the kernel chose for port 0. */
  private int port;
  private volatile boolean stopped;
  private AcceptErrorHandler acceptErrors;
  private final Listeners listeners = new Listeners();
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
    return RuntimeSettings.options(descriptor.defaultPort(), descriptor.defaultAdminPort(), descriptor.options());
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
      throw outOfDescriptors(e, "cannot start " + descriptor.name()).orElseThrow(() -> e);
    }
    return rt;
  }

  private void startAll() {
    descriptor.validate(settings);
    plan = StartPlan.settle(common, inherited, StartPlan.Machine.HERE);
    if (!inherited.isEmpty()) {
      LOG.info("serving {} inherited listening socket(s) on port {} from {}", inherited.size(), inherited.port(),
          inherited.source());
    }
    Duration warmUpLimit = common.warmup();
    warmUpExchange = warmUpLimit.isZero() ? null : descriptor.warmUp(settings).orElse(null);

    // No Vert.x instance runs the metrics SPI: it would put a per-request timer on every hot path.
    // Services count what matters themselves, cheaply, per connection or per read; the JVM's own
    // meters are bound here once.
    adminVertx = Vertx.builder()
        .with(new VertxOptions().setEventLoopPoolSize(1).setWorkerPoolSize(2))
        .withTransport(plan.transport())
        .build();
    new JvmMemoryMetrics().bindTo(registry);
    new JvmGcMetrics().bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    new FileDescriptorMetrics().bindTo(registry);
    new UptimeMetrics().bindTo(registry);
    registerInfo();
    ListenOverflows.register(registry);
    beats = new EventLoopBeats(common.livenessTimeout());
    Gauge.builder("portshare.event.loops.stuck", beats, b -> b.stale().size())
        .description("Service event loops that have not run for --liveness-timeout (what /health/live fails on)")
        .tag("service", descriptor.name())
        .register(registry);
    registerDrainMeters();
    // A supervisor's replacement child starts while the one it replaces still drains on the same
    // admin port: both hold it for that while (SO_REUSEPORT), as they share the service port.
    admin = new AdminServer(adminVertx, registry, common.host(), common.adminPort(), inherited.fromSupervisor(),
        beats);
    await(admin.start(), "admin port " + common.adminPort());

    int instances = plan.instances();
    // Each instance needs at least an epoll, an eventfd, a timerfd and a listening socket. Short of
    // those, say so now: further in, Vert.x and Netty meet the limit in places that log stack traces
    // (the hosts file, a bind's promise) before any clear error could be given.
    if (!FileLimit.fits(instances * DESCRIPTORS_PER_INSTANCE)) {
      throw new StartException("cannot start " + descriptor.name() + ": out of file descriptors (open files limit "
          + FileLimit.describe() + "); raise the limit (ulimit -n) or lower --instances", null);
    }
    connections = new Connections(registry, descriptor.name(), instances, warmUpExchange != null);
    if (stopRequest.requested()) {
      return;
    }
    acceptErrors = new AcceptErrorHandler(descriptor.name(), connections::open);
    int asked = plan.port();
    if (plan.mode() == ScalingMode.SHARED) {
      // One Vert.x shares one socket among its verticles by host and port; port 0 would give each
      // its own random port, so ask for Vert.x's "shared random port" (-1) instead.
      await(deploy(newServiceVertx(instances, 0), 0, instances, asked == 0 ? -1 : asked), "port " + asked);
    } else {
      // A socket per instance: the first binds alone so that port 0 resolves to one port that the
      // rest then join. Pinned binds them one after another, in CPU order: the steering program
      // numbers the listeners in bind order.
      await(deploy(newServiceVertx(1, 0), 0, 1, asked), "port " + asked);
      int bound = contexts.get(0).actualPort();
      List<Future<?>> rest = new ArrayList<>();
      for (int i = 1; i < instances; i++) {
        Future<String> deployed = deploy(newServiceVertx(1, i), i, 1, bound);
        if (plan.pinned() != null) {
          await(deployed, "port " + bound);
        } else {
          rest.add(deployed);
        }
      }
      await(Future.all(rest), "port " + bound);
    }
    port = contexts.get(0).actualPort();
    PinnedMode pinned = plan.pinned();
    if (pinned != null) {
      if (pinned.steer(listeners, port, instances)) {
        pinned.registerMeters(registry, descriptor.name());
      } else {
        plan = plan.withoutPinning(pinned.failure());
        registry.find("portshare.info").meters().forEach(registry::remove);
        registerInfo();
      }
    }
    synchronized (verticles) {
      for (ServiceVerticle v : verticles) {
        beats.watch(descriptor.name() + " instance " + v.service.instance(), v.vertxContext());
      }
    }
    long listeningMillis = StartTimes.sinceJvmStart();
    if (stopRequest.requested()) {
      return;
    }
    phase = "warming up";
    WarmUp.Result warmed = warmUpExchange == null ? null : warmUp(warmUpLimit);
    if (stopRequest.requested()) {
      return;
    }
    startTimes = new StartTimes(listeningMillis, StartTimes.sinceJvmStart(), warmed);
    startTimes.register(registry, descriptor.name());
    phase = "ready";
    admin.ready(true);
  }

  /** Drives every instance with the service's own exchange, then tells each verticle it is over. */
  private WarmUp.Result warmUp(Duration limit) {
    String host = common.host();
    // A wildcard listener is reached over loopback; a specific address is reached at itself.
    String target = host.equals("0.0.0.0") || host.isEmpty() ? "127.0.0.1" : host.equals("::") ? "::1" : host;
    List<Vertx> vertxes;
    synchronized (serviceVertx) {
      vertxes = new ArrayList<>(serviceVertx);
    }
    List<ServiceContext> instancesNow;
    synchronized (verticles) {
      instancesNow = new ArrayList<>(contexts);
    }
    WarmUp.Result r;
    try {
      r = new WarmUp(warmUpExchange, SocketAddress.inetSocketAddress(port, target), limit, stopRequest)
          .run(vertxes, plan.mode() == ScalingMode.SHARED ? plan.instances() : 1,
              () -> instancesNow.stream().mapToLong(ServiceContext::warmUpConnections).min().orElse(0));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StartException("interrupted during warm-up", e);
    }
    instancesNow.forEach(ServiceContext::warmUpEnded);
    connections.warmUpEnded();
    List<Future<Void>> told = new ArrayList<>();
    List<ServiceVerticle> all;
    synchronized (verticles) {
      all = new ArrayList<>(verticles);
    }
    for (ServiceVerticle v : all) {
      Promise<Void> p = Promise.promise();
      v.vertxContext().runOnContext(x -> {
        v.warmedUp();
        p.complete();
      });
      told.add(p.future());
    }
    await(Future.all(told), "the end of the warm-up");
    if (r.ended().equals("failing")) {
      LOG.warn("warm-up: the service failed {} of {} warm-up exchanges ({}); ready without it",
          r.failed(), r.failed() + r.answered(), warmUpExchange);
    }
    return r;
  }

  /**
   * A Vert.x for the service with {@code eventLoops} loops, numbered from {@code firstLoop} in
   * metrics, serving the plan's inherited socket for that loop or binding its own; pinned to its
   * CPU when the plan is pinned.
   */
  private ServiceVertx newServiceVertx(int eventLoops, int firstLoop) {
    Transport transport = plan.transport();
    RuntimeTransport runtimeTransport = new RuntimeTransport(transport, plan.leanChannels(),
        common.acceptOnEventLoop() && eventLoops == 1, listeners, acceptErrors, connections, ownPipelines, firstLoop,
        plan.inheritedFd(firstLoop));
    Vertx vertx = Vertx.builder()
        .with(new VertxOptions()
            .setEventLoopPoolSize(eventLoops)
            .setWorkerPoolSize(Math.max(2, eventLoops))
            .setInternalBlockingPoolSize(Math.max(2, eventLoops))
            .setPreferNativeTransport(transport != Transport.NIO))
        .withTransport(runtimeTransport)
        .build();
    synchronized (serviceVertx) {
      serviceVertx.add(vertx);
    }
    if (plan.pinned() != null) {
      plan.pinned().pin(vertx, firstLoop);
    }
    return new ServiceVertx(vertx, runtimeTransport);
  }

  /** A Vert.x instance of the service and the transport its listeners are bound through. */
  private record ServiceVertx(Vertx vertx, RuntimeTransport transport) {}

  /** Deploys {@code count} instances numbered from {@code firstIndex} on one Vert.x, listening on {@code listenPort}. */
  private Future<String> deploy(ServiceVertx service, int firstIndex, int count, int listenPort) {
    AtomicInteger next = new AtomicInteger(firstIndex);
    ScalingMode mode = plan.mode();
    return service.vertx().deployVerticle(() -> {
      int index = next.getAndIncrement();
      ServiceContext ctx = new ServiceContext(descriptor.name(), settings, common, mode, index, listenPort,
          registry, connections, ownPipelines, service.transport(), warmUpExchange != null);
      ServiceVerticle v = descriptor.newVerticle();
      v.attach(ctx);
      synchronized (verticles) {
        verticles.add(v);
        contexts.add(ctx);
        contexts.sort(Comparator.comparingInt(ServiceContext::instance));
      }
      return v;
    }, new DeploymentOptions().setInstances(count));
  }

  /**
   * How long the drain has run (0 before it starts) and its bound: a drain near its bound with
   * connections still open is one about to cut them. Read while the process drains, since its admin
   * port answers until the end.
   */
  private void registerDrainMeters() {
    Gauge.builder("portshare.drain.seconds", this,
            rt -> rt.drainStartedNanos == 0 ? 0 : (System.nanoTime() - rt.drainStartedNanos) / 1e9)
        .description("How long the drain has run; 0 while not draining")
        .tag("service", descriptor.name())
        .register(registry);
    Gauge.builder("portshare.drain.timeout.seconds", () -> common.drainTimeout().toMillis() / 1000.0)
        .description("--drain-timeout: the longest a drain waits for connections to finish")
        .tag("service", descriptor.name())
        .register(registry);
  }

  private void registerInfo() {
    Gauge.builder("portshare.info", () -> 1)
        .description("What runs: service, version, scaling mode, transport, channels, instances")
        .tag("service", descriptor.name())
        .tag("version", Version.get())
        .tag("mode", plan.mode().label())
        .tag("transport", plan.transportName())
        .tag("channel", plan.channelName())
        .tag("instances", Integer.toString(plan.instances()))
        .register(registry);
  }

  /** The clear start error when "Too many open files" is anywhere in the causes. */
  private static Optional<StartException> outOfDescriptors(Throwable failure, String what) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (String.valueOf(t.getMessage()).contains("Too many open files")) {
        return Optional.of(new StartException(what + ": out of file descriptors (open files limit "
            + FileLimit.describe() + "); raise the limit (ulimit -n) or lower --instances", failure));
      }
    }
    return Optional.empty();
  }

  private static <T> T await(Future<T> f, String what) {
    try {
      return f.toCompletionStage().toCompletableFuture().get(START_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      String msg = String.valueOf(cause.getMessage());
      Optional<StartException> outOfDescriptors = outOfDescriptors(cause, "cannot start " + what);
      if (outOfDescriptors.isPresent()) {
        throw outOfDescriptors.get();
      }
      if (cause instanceof BindException || msg.contains("Address already in use")) {
        throw new StartException("cannot listen on " + what + ": address already in use", cause);
      }
      if (msg.contains("Permission denied") || msg.contains("Cannot assign requested address")) {
        throw new StartException("cannot listen on " + what + ": " + msg.replaceFirst(".*: ", ""), cause);
      }
      if (cause instanceof RuntimeException) {
        throw (RuntimeException) cause;
      }
      throw new StartException("failed to start " + what + ": " + cause, cause);
    } catch (TimeoutException e) {
      throw new StartException("timed out starting " + what, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StartException("interrupted starting " + what, e);
    }
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
    List<Future<Void>> drains = new ArrayList<>();
    List<ServiceVerticle> all;
    synchronized (verticles) {
      all = new ArrayList<>(verticles);
    }
    for (ServiceVerticle v : all) {
      Promise<Void> p = Promise.promise();
      v.vertxContext().runOnContext(x -> v.drain(connectionsTimeout).onComplete(p));
      drains.add(p.future());
    }
    try {
      Future.join(drains).toCompletionStage().toCompletableFuture()
          .get(connectionsTimeout.plus(DRAIN_REPORT_WAIT).toMillis(), TimeUnit.MILLISECONDS);
    } catch (Exception e) {
      LOG.warn("drain did not finish in time: {}", e.toString());
    }
    closeAll();
    LOG.info("drained: {} connections were cut at the timeout", connections.open());
  }

  private void closeAll() {
    List<Future<Void>> closes = new ArrayList<>();
    synchronized (serviceVertx) {
      serviceVertx.forEach(v -> closes.add(v.close()));
    }
    try {
      Future.join(closes).toCompletionStage().toCompletableFuture().get(CLOSE_WAIT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (Exception e) {
      LOG.warn("closing service event loops: {}", e.toString());
    }
    if (adminVertx != null) {
      try {
        adminVertx.close().toCompletionStage().toCompletableFuture().get(CLOSE_WAIT.toMillis(), TimeUnit.MILLISECONDS);
      } catch (Exception e) {
        LOG.warn("closing admin server: {}", e.toString());
      }
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
    return admin.actualPort();
  }

  /** The running verticles, one per instance. */
  List<ServiceVerticle> verticles() {
    synchronized (verticles) {
      return List.copyOf(verticles);
    }
  }

  /** What this start runs, and why wherever it is not what the settings asked. */
  public StartPlan plan() {
    return plan;
  }

  /** The scaling mode that runs: the plan's. */
  public ScalingMode mode() {
    return plan.mode();
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
    return beats.stale().size();
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

  /** Thrown when the service cannot start for a reason of the machine (port taken, ...): exit 1. */
  public static final class StartException extends RuntimeException {
    public StartException(String message, Throwable cause) {
      super(message, cause);
    }
  }
}
