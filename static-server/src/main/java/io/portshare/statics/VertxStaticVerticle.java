package io.portshare.statics;

import io.portshare.runtime.ServiceVerticle;
import io.vertx.core.Future;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.function.Supplier;

/**
 * One instance of the static service on {@code --engine vertx}: Vert.x's {@link HttpServer}, listened
 * through the runtime (its listener layer, modes and drain apply), with a vertx-web {@link Router}
 * whose route for GET and HEAD, and whose route for any other method (405), give the request to
 * {@link VertxFileAnswers}. The limits map to Vert.x's: --max-uri to the longest initial line,
 * --max-header-size to the largest head, --idle-timeout is the runtime's, Vert.x's idle timeout in the options it gives (no read and no
 * write finished for that long). Vert.x has no header timeout: --header-timeout does not apply (see
 * static-server/README.md, Engines). --max-connection-age is the runtime's, applied by its listen.
 */
public final class VertxStaticVerticle extends ServiceVerticle {

  private VertxFileAnswers answers;

  @Override
  public Future<?> start() {
    StaticSettings s = StaticSettings.of(service.settings());
    Supplier<StaticMetrics> metrics = service.warmUpSplit(
        new StaticMetrics(service.registry(), Integer.toString(service.instance())), new StaticMetrics());
    answers = new VertxFileAnswers(s.router(), s.directoryListing(), s.sendfile(), s.cacheControl(),
        vertx.fileSystem(), metrics);
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
        .setMaxHeaderSize(s.maxHeaderSize());
    HttpServer server = vertx.createHttpServer(options)
        .invalidRequestHandler(answers::refuse)
        .requestHandler(router);
    return service.listen(server);
  }

  private void answer(RoutingContext ctx) {
    answers.answerTimed(ctx.request());
  }
}
