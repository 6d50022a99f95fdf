package io.portshare.runtime.impl;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.portshare.runtime.ServiceVerticle;
import io.portshare.runtime.admin.AdminServer;
import io.portshare.runtime.admin.EventLoopBeats;
import io.portshare.runtime.config.RuntimeSettings;
import io.portshare.runtime.net.InheritedSockets;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.ext.healthchecks.Status;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.DoubleSupplier;

/**
 * The side of a running service an operator reads: its admin server (health, readiness, metrics) on
 * a Vert.x of its own, so that a busy or stuck service loop never delays {@code /health/live}, the
 * runtime's meters, and the watch on the service's event loops that liveness reports.
 */
final class AdminSide {

  private final String service;
  private final RuntimeSettings common;
  private final PrometheusMeterRegistry registry;
  private final InheritedSockets inherited;
  private final RuntimeMeters meters;
  private Vertx vertx;
  private AdminServer server;
  private EventLoopBeats beats;

  AdminSide(String service, RuntimeSettings common, PrometheusMeterRegistry registry, InheritedSockets inherited) {
    this.service = service;
    this.common = common;
    this.registry = registry;
    this.inherited = inherited;
    this.meters = new RuntimeMeters(registry, service, common.vertxMetrics());
  }

  /** Binds the meters for {@code plan} and starts the admin server; blocks until it listens. */
  void start(StartPlan plan, DoubleSupplier drainSeconds) {
    vertx = Vertx.builder()
        .with(new VertxOptions().setEventLoopPoolSize(1).setWorkerPoolSize(2))
        .withTransport(plan.transport())
        .build();
    meters.bindJvm();
    meters.info(plan);
    beats = new EventLoopBeats(common.livenessTimeout());
    meters.stuckLoops(beats);
    meters.drain(drainSeconds, common.drainTimeout());
    // A supervisor's replacement child starts while the one it replaces still drains on the same
    // admin port: both hold it for that while (SO_REUSEPORT), as they share the service port.
    server = new AdminServer(vertx, registry, common.host(), common.adminPort(), inherited.fromSupervisor(), beats);
    StartFailures.await(server.start(), "admin port " + common.adminPort());
  }

  /** {@code portshare_info} again, for a plan that changed once bound. */
  void planChanged(StartPlan plan) {
    meters.info(plan);
  }

  /** Watches each verticle's event loop: a loop that stops running fails {@code /health/live}. */
  void watch(List<ServiceVerticle> verticles) {
    for (ServiceVerticle v : verticles) {
      beats.watch(service + " instance " + VerticleAccess.context(v).instance(), VerticleAccess.vertxContext(v));
    }
  }

  /** A service's readiness check on /health/ready; the admin server listens by the time services deploy. */
  void addReadinessCheck(String name, Handler<Promise<Status>> procedure) {
    server.addReadinessCheck(name, procedure);
  }

  void ready(boolean ready) {
    if (server != null) {
      server.ready(ready);
    }
  }

  int port() {
    return server.actualPort();
  }

  /** Service event loops that have not run for --liveness-timeout. */
  int stuckLoops() {
    return beats.stale().size();
  }

  /** Closes the admin server's Vert.x, waiting at most {@code wait}. */
  void close(Duration wait) throws Exception {
    if (vertx != null) {
      vertx.close().toCompletionStage().toCompletableFuture().get(wait.toMillis(), TimeUnit.MILLISECONDS);
    }
  }
}
