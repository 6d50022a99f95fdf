package io.portshare.runtime.impl;

import io.micrometer.core.instrument.MeterRegistry;
import io.portshare.runtime.ServiceDescriptor;
import io.portshare.runtime.ServiceVerticle;
import io.portshare.runtime.Settings;
import io.portshare.runtime.StartException;
import io.portshare.runtime.WarmUpExchange;
import io.portshare.runtime.config.RuntimeSettings;
import io.portshare.runtime.impl.mode.Mode;
import io.portshare.runtime.net.AcceptErrorHandler;
import io.portshare.runtime.net.Connections;
import io.portshare.runtime.net.Listeners;
import io.portshare.runtime.net.OwnPipelines;
import io.portshare.runtime.net.RuntimeTransport;
import io.portshare.runtime.warmup.WarmUp;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.VertxBuilder;
import io.vertx.core.VertxOptions;
import io.vertx.core.net.SocketAddress;
import io.vertx.core.transport.Transport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A service's instances laid out as its plan's mode says: the Vert.x instances and their event loops,
 * the verticle on each event loop, and its context.
 * {@link ServiceRuntime} starts, warms, drains and stops them through this class.
 */
final class Instances {

  private static final Logger LOG = LoggerFactory.getLogger(Instances.class);

  private final ServiceDescriptor descriptor;
  private final Settings settings;
  private final RuntimeSettings common;
  private final MeterRegistry registry;
  private final Listeners listeners;
  /** Vert.x's server meters (--vertx-metrics), or null: the service's Vert.x instances run no metrics SPI. */
  private final VertxServerMeters serverMeters;
  private final OwnPipelines ownPipelines = new OwnPipelines();
  private final List<Vertx> vertxes = new ArrayList<>();
  /** Guarded by itself; {@link #contexts} in instance order, beside it. */
  private final List<ServiceVerticle> verticles = new ArrayList<>();
  private final List<InstanceContext> contexts = new ArrayList<>();
  private final ReadinessChecks readiness;
  /** The verticle's deployment, the descriptor's hook asked once; each Vert.x instance deploys a copy. */
  private final DeploymentOptions deploymentBase;

  Instances(ServiceDescriptor descriptor, Settings settings, RuntimeSettings common, MeterRegistry registry,
      Listeners listeners, VertxServerMeters serverMeters, ReadinessChecks readiness) {
    this.readiness = readiness;
    this.deploymentBase = VerticleDeploymentOptions.of(descriptor, settings);
    this.descriptor = descriptor;
    this.settings = settings;
    this.common = common;
    this.registry = registry;
    this.listeners = listeners;
    this.serverMeters = serverMeters;
  }

  /**
   * Deploys every instance of {@code plan} and waits until each listens: a Vert.x per listener with
   * the event loops the mode gives it (shared: one Vert.x whose verticles share one listener), the
   * first alone so that port 0 resolves to one port the rest then join, and, where the mode binds in
   * order (pinned: the steering program numbers the listeners in bind order), one after another.
   * Returns the port bound.
   */
  int listen(StartPlan plan, Connections connections, AcceptErrorHandler acceptErrors, boolean warmingUp) {
    int asked = plan.port();
    int instances = plan.instances();
    int loops = plan.mode().loopsPerVertx(instances);
    // One Vert.x shares one socket among its verticles by host and port; port 0 would give each
    // its own random port, so ask for Vert.x's "shared random port" (-1) instead.
    int first = loops > 1 && asked == 0 ? -1 : asked;
    StartFailures.await(deploy(plan, newServiceVertx(plan, connections, acceptErrors, loops, 0), 0, loops, first,
        connections, warmingUp), "port " + asked);
    int bound = contexts().get(0).actualPort();
    List<Future<?>> rest = new ArrayList<>();
    for (int i = loops; i < instances; i += loops) {
      Future<String> deployed = deploy(plan, newServiceVertx(plan, connections, acceptErrors, loops, i), i, loops,
          bound, connections, warmingUp);
      if (plan.mode().bindsInOrder()) {
        StartFailures.await(deployed, "port " + bound);
      } else {
        rest.add(deployed);
      }
    }
    StartFailures.await(Future.all(rest), "port " + bound);
    return contexts().get(0).actualPort();
  }

  /**
   * A Vert.x for the service with {@code eventLoops} loops, numbered from {@code firstLoop} in
   * metrics, serving the plan's inherited socket for that Vert.x or binding its own, placed as the
   * mode places it.
   */
  private ServiceVertx newServiceVertx(StartPlan plan, Connections connections, AcceptErrorHandler acceptErrors,
      int eventLoops, int firstLoop) {
    Transport transport = plan.transport();
    RuntimeTransport runtimeTransport = new RuntimeTransport(transport, plan.leanChannels(),
        common.acceptOnEventLoop() && eventLoops == 1, common.answerHalfClosed(), listeners, acceptErrors, connections,
        ownPipelines, firstLoop, plan.inheritedFd(firstLoop / eventLoops));
    VertxOptions options = new VertxOptions()
        .setWorkerPoolSize(Math.max(2, eventLoops))
        .setInternalBlockingPoolSize(Math.max(2, eventLoops));
    descriptor.beforeStartingVertx(options);
    // What the mode needs, whatever the service's hook set.
    options.setEventLoopPoolSize(eventLoops).setPreferNativeTransport(transport != Transport.NIO);
    VertxBuilder builder = serverMeters == null ? Vertx.builder().with(options)
        : serverMeters.apply(Vertx.builder(), options);
    Vertx vertx = builder.withTransport(runtimeTransport).build();
    synchronized (vertxes) {
      vertxes.add(vertx);
    }
    plan.mode().place(vertx, firstLoop);
    return new ServiceVertx(vertx, runtimeTransport);
  }

  /** A Vert.x instance of the service and the transport its listeners are bound through. */
  private record ServiceVertx(Vertx vertx, RuntimeTransport transport) {}

  /** Deploys {@code count} instances numbered from {@code firstIndex} on one Vert.x, listening on {@code listenPort}. */
  private Future<String> deploy(StartPlan plan, ServiceVertx service, int firstIndex, int count, int listenPort,
      Connections connections, boolean warmingUp) {
    AtomicInteger next = new AtomicInteger(firstIndex);
    Mode mode = plan.mode();
    DeploymentOptions deployment = new DeploymentOptions(deploymentBase).setInstances(count);
    return service.vertx().deployVerticle(() -> {
      int index = next.getAndIncrement();
      InstanceContext ctx = new InstanceContext(descriptor.name(), settings, common, mode, index, listenPort,
          registry, connections, ownPipelines, service.transport(), readiness, warmingUp);
      ServiceVerticle v = descriptor.newVerticle(settings);
      VerticleAccess.attach(v, ctx);
      synchronized (verticles) {
        verticles.add(v);
        contexts.add(ctx);
        contexts.sort(Comparator.comparingInt(InstanceContext::instance));
      }
      return v;
    }, deployment);
  }

  /** The service's Vert.x instances, in the order they were made. */
  List<Vertx> vertxes() {
    synchronized (vertxes) {
      return List.copyOf(vertxes);
    }
  }

  List<ServiceVerticle> verticles() {
    synchronized (verticles) {
      return List.copyOf(verticles);
    }
  }

  /** Each instance's context, in instance order. */
  List<InstanceContext> contexts() {
    synchronized (verticles) {
      return List.copyOf(contexts);
    }
  }

  /** Runs {@code action} on each verticle's event loop; completes once every one has run it. */
  Future<Void> onEachLoop(Function<ServiceVerticle, Future<Void>> action) {
    List<Future<Void>> all = new ArrayList<>();
    for (ServiceVerticle v : verticles()) {
      Promise<Void> p = Promise.promise();
      VerticleAccess.vertxContext(v).runOnContext(x -> action.apply(v).onComplete(p));
      all.add(p.future());
    }
    return Future.join(all).mapEmpty();
  }

  /**
   * Tells each verticle to finish its connections within {@code timeout}, and waits for all to say
   * they have, at most {@code reportWait} longer.
   */
  void drain(Duration timeout, Duration reportWait) {
    try {
      onEachLoop(v -> v.drain(timeout)).toCompletionStage().toCompletableFuture()
          .get(timeout.plus(reportWait).toMillis(), TimeUnit.MILLISECONDS);
    } catch (Exception e) {
      LOG.warn("drain did not finish in time: {}", e.toString());
    }
  }

  /** Closes every Vert.x instance of the service, waiting at most {@code wait}. */
  void close(Duration wait) {
    List<Future<Void>> closes = new ArrayList<>();
    for (Vertx v : vertxes()) {
      closes.add(v.close());
    }
    try {
      Future.join(closes).toCompletionStage().toCompletableFuture().get(wait.toMillis(), TimeUnit.MILLISECONDS);
    } catch (Exception e) {
      LOG.warn("closing service event loops: {}", e.toString());
    }
  }

  /**
   * Drives every instance with the service's own {@code exchange} over loopback (or the address it
   * listens on) until throughput settles or {@code limit} passes, then tells each context, {@code ended}
   * and each verticle that it is over.
   */
  WarmUp.Result warmUp(WarmUpExchange exchange, StartPlan plan, int port, Duration limit, StopRequest stop,
      Runnable ended) {
    String host = common.host();
    // A wildcard listener is reached over loopback; a specific address is reached at itself.
    String target = host.equals("0.0.0.0") || host.isEmpty() ? "127.0.0.1" : host.equals("::") ? "::1" : host;
    List<InstanceContext> all = contexts();
    WarmUp.Result r;
    try {
      r = new WarmUp(exchange, SocketAddress.inetSocketAddress(port, target), limit, stop)
          .run(vertxes(), plan.mode().loopsPerVertx(plan.instances()),
              () -> all.stream().mapToLong(InstanceContext::warmUpConnections).min().orElse(0));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StartException("interrupted during warm-up", e);
    }
    all.forEach(InstanceContext::warmUpEnded);
    ended.run();
    StartFailures.await(onEachLoop(v -> {
      VerticleAccess.warmedUp(v);
      return Future.succeededFuture();
    }), "the end of the warm-up");
    if (r.ended().equals("failing")) {
      LOG.warn("warm-up: the service failed {} of {} warm-up exchanges ({}); ready without it",
          r.failed(), r.failed() + r.answered(), exchange);
    }
    return r;
  }
}
