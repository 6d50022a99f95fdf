package io.portshare.statics;

import io.portshare.runtime.ServiceVerticle;
import io.portshare.web.StaticFiles;
import io.vertx.core.Future;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.ext.web.Router;
import java.util.function.Supplier;

/**
 * One instance of the static service on {@code --engine vertx}: Vert.x's {@link HttpServer}, listened
 * through the runtime (its listener layer, modes and drain apply), with a vertx-web {@link Router} of
 * three routes: {@link VertxFileAnswers#front} (Server, Date, the answer's timer), portshare-web's
 * {@link StaticFiles} mounted at "/" (every file answer), and {@link VertxFileAnswers#rest} (404, or
 * 405 for a method other than GET and HEAD, for whatever StaticFiles passes on). The limits map to
 * Vert.x's: --max-uri to the longest initial line, --max-header-size to the largest head,
 * --idle-timeout is the runtime's, Vert.x's idle timeout in the options it gives (no read and no write
 * finished for that long). Vert.x has no header timeout: --header-timeout does not apply (see
 * static-server/README.md, Engines). --max-connection-age is the runtime's, applied by its listen.
 */
public final class VertxStaticVerticle extends ServiceVerticle {

  private StaticFiles files;

  @Override
  public Future<?> start() {
    StaticSettings s = StaticSettings.of(service.settings());
    Supplier<StaticMetrics> metrics = service.warmUpSplit(
        new StaticMetrics(service.registry(), Integer.toString(service.instance())), new StaticMetrics());
    VertxFileAnswers answers = new VertxFileAnswers(metrics);
    vertx.setPeriodic(1000, id -> answers.tick(System.currentTimeMillis()));
    files = s.staticFiles().listener(answers.listener()).build();

    Router router = Router.router(vertx);
    router.route().handler(answers::front);
    router.route().handler(files);
    router.route().handler(answers::rest);
    // Refused by the Router before any route: 400 without Host (as the own engine answers), 404 for a
    // target that does not start with '/', which is answered as the own engine does.
    router.errorHandler(400, ctx -> answers.badRequest(ctx.request()));
    router.errorHandler(404, answers::notRouted);

    HttpServerOptions options = service.httpServerOptions()
        .setMaxInitialLineLength(s.maxUri())
        .setMaxHeaderSize(s.maxHeaderSize());
    HttpServer server = vertx.createHttpServer(options)
        .invalidRequestHandler(answers::refuse)
        .requestHandler(router);
    return service.listen(server);
  }

  /** Closes the files StaticFiles keeps open for sendfile (an answer still being sent closes its own when done). */
  @Override
  public Future<?> stop() throws Exception {
    if (files != null) {
      files.close();
    }
    return super.stop();
  }
}
