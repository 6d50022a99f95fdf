package io.portshare.bench.router;

import io.vertx.core.Vertx;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.FileSystemAccess;
import io.vertx.ext.web.handler.StaticHandler;

/**
 * The routes a Vert.x user writes, as {@code deploy/new-service.sh} generates them: a route of the
 * service's own and vertx-web's {@code StaticHandler} for everything else. Pure vertx-web, nothing of
 * portshare: the ledger runs the same routes on the portshare runtime ({@link RouterService}) and on
 * stock Vert.x ({@link StockRouterVerticle}), so the two rows differ by the runtime alone. The static
 * route serves a directory of the file system (the generated service serves its jar's
 * {@code webroot}), since the ledger's files are made at run time.
 */
public final class RouterRoutes {

  private RouterRoutes() {}

  public static Router router(Vertx vertx, String root) {
    Router router = Router.router(vertx);
    router.get("/hello").handler(ctx -> ctx.response().putHeader("content-type", "text/plain; charset=utf-8")
        .end("hello\n"));
    router.route().handler(StaticHandler.create(FileSystemAccess.ROOT, root));
    return router;
  }
}
