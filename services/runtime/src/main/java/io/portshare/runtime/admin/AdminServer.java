package io.portshare.runtime.admin;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.healthchecks.HealthChecks;
import io.vertx.ext.healthchecks.Status;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.healthchecks.HealthCheckHandler;
import io.vertx.micrometer.PrometheusScrapingHandler;
import java.util.List;

/**
 * The admin HTTP server, on its own port and event loop: {@code /health/live} (down when a
 * service event loop has stopped beating, see {@link EventLoopBeats}), {@code /health/ready} (down
 * while starting or draining) and {@code /metrics} (Prometheus text).
 */
public final class AdminServer {

  private final Vertx vertx;
  private final PrometheusMeterRegistry registry;
  private final String host;
  private final int port;
  private final boolean shared;
  private final EventLoopBeats beats;
  private volatile boolean ready;
  private HttpServer server;
  /** What /health/ready asks: the runtime's "serving", then the service's own checks. */
  private final HealthChecks readinessChecks;

  /** @param shared whether another process may listen on the same admin port (SO_REUSEPORT) */
  public AdminServer(Vertx vertx, PrometheusMeterRegistry registry, String host, int port, boolean shared,
      EventLoopBeats beats) {
    this.vertx = vertx;
    this.beats = beats;
    this.registry = registry;
    this.host = host;
    this.port = port;
    this.shared = shared;
    this.readinessChecks = HealthChecks.create(vertx);
  }

  /**
   * Adds a service's readiness check to {@code /health/ready}, by name; {@code group/name} nests.
   * Registering a name again replaces its procedure.
   */
  public void addReadinessCheck(String name, Handler<Promise<Status>> procedure) {
    readinessChecks.unregister(name);
    readinessChecks.register(name, procedure);
  }

  public Future<HttpServer> start() {
    HealthCheckHandler live = HealthCheckHandler.create(vertx)
        .register("event-loops", p -> {
          List<String> stale = beats.stale();
          p.complete(stale.isEmpty() ? Status.OK() : Status.KO(new JsonObject()
              .put("stuck", String.join("; ", stale)).put("limit-ms", beats.limit().toMillis())));
        });
    readinessChecks.register("serving", p -> p.complete(ready ? Status.OK() : Status.KO()));
    HealthCheckHandler readiness = HealthCheckHandler.createWithHealthChecks(readinessChecks);
    Router router = Router.router(vertx);
    router.get("/health/live").handler(live);
    router.get("/health/ready").handler(readiness);
    router.get("/metrics").handler(PrometheusScrapingHandler.create(registry));
    server = vertx.createHttpServer(new HttpServerOptions().setHost(host).setPort(port).setReuseAddress(true)
        .setReusePort(shared));
    return server.requestHandler(router).listen();
  }

  public void ready(boolean ready) {
    this.ready = ready;
  }

  public int actualPort() {
    return server == null ? -1 : server.actualPort();
  }
}
