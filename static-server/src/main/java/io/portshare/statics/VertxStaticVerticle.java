package io.portshare.statics;

import io.portshare.runtime.ServiceVerticle;
import io.vertx.core.Future;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One instance of the static service on {@code --engine vertx}: Vert.x's {@link HttpServer}, listened
 * through the runtime (its listener layer, modes and drain apply), with a vertx-web {@link Router}
 * whose route for GET and HEAD, and whose route for any other method (405), give the request to
 * {@link VertxFileAnswers}. The limits map to Vert.x's: --max-uri to the longest initial line,
 * --max-header-size to the largest head, --idle-timeout to Vert.x's idle timeout (no read and no
 * write finished for that long). Vert.x has no header timeout: --header-timeout does not apply (see
 * static-server/README.md, Engines).
 */
public final class VertxStaticVerticle extends ServiceVerticle {

  private StaticMetrics served;
  private VertxFileAnswers answers;
  /** Each open connection's end of life in System.nanoTime() terms, when --max-connection-age is set. */
  private final Map<HttpConnection, Long> closeAt = new HashMap<>();
  private boolean agesOut;

  @Override
  public Future<?> start() {
    StaticSettings s = StaticSettings.of(service.settings());
    served = new StaticMetrics(service.registry(), Integer.toString(service.instance()));
    StaticMetrics metrics = service.warmingUp() ? new StaticMetrics() : served;
    answers = new VertxFileAnswers(s.router(), s.directoryListing(), s.sendfile(), s.cacheControl(),
        vertx.fileSystem(), metrics);
    agesOut = !service.connectionLifetime().isZero();
    vertx.setPeriodic(1000, id -> answers.tick(System.currentTimeMillis()));

    Router router = Router.router(vertx);
    router.route().method(HttpMethod.GET).method(HttpMethod.HEAD).handler(this::answer);
    router.route().handler(this::answer);
    // Refused by the Router before any route: 400 without Host (as the own engine answers), 404 for a
    // target that does not start with '/', which the decisions answer as the own engine does.
    router.errorHandler(400, ctx -> answers.badRequest(ctx.request()));
    router.errorHandler(404, this::answer);

    HttpServerOptions options = service.httpServerOptions()
        .setMaxInitialLineLength(s.maxUri())
        .setMaxHeaderSize(s.maxHeaderSize())
        .setIdleTimeout((int) s.idleTimeout().toMillis())
        .setIdleTimeoutUnit(TimeUnit.MILLISECONDS);
    HttpServer server = vertx.createHttpServer(options)
        .invalidRequestHandler(answers::refuse)
        .requestHandler(router);
    if (agesOut) {
      server.connectionHandler(this::born);
    }
    return service.listen(server);
  }

  @Override
  protected void warmedUp() {
    answers.countIn(served);
  }

  private void born(HttpConnection connection) {
    closeAt.put(connection, System.nanoTime() + service.connectionLifetime().toNanos());
    connection.closeHandler(v -> closeAt.remove(connection));
  }

  /**
   * Answers; past --max-connection-age the answer says {@code Connection: close} and the connection
   * closes once it is written, between two requests, as the own engine's {@link ConnectionAgeLimit} does.
   */
  private void answer(RoutingContext ctx) {
    HttpServerRequest req = ctx.request();
    Long end = agesOut ? closeAt.get(req.connection()) : null;
    if (end != null && System.nanoTime() - end >= 0) {
      req.response().putHeader(HttpHeaders.CONNECTION, HttpHeaders.CLOSE);
      answers.answerTimed(req).onComplete(done -> req.connection().close());
    } else {
      answers.answerTimed(req);
    }
  }
}
