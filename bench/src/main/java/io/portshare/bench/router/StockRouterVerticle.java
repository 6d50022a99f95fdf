package io.portshare.bench.router;

import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.ext.web.RoutingContext;
import java.nio.file.Path;

/**
 * The ledger's Router verticle on stock Vert.x, started by Vert.x's own launcher
 * ({@code VertxApplication StockRouterVerticle -instances N -conf {"port":P,"root":DIR}}, with
 * {@code "files":"statichandler"} for vertx-web's StaticHandler on the static route instead of StaticFiles):
 * {@link RouterRoutes} behind an {@code HttpServer}, with the options a Vert.x user sets for a fast
 * server (TCP_NODELAY, a deep accept queue) and nothing of portshare.
 */
public final class StockRouterVerticle extends VerticleBase {

  private Handler<RoutingContext> statics;

  @Override
  public Future<?> start() {
    int port = config().getInteger("port", 8000);
    String root = Path.of(config().getString("root", ".")).toAbsolutePath().toString();
    RouterRoutes.FileHandler files = RouterRoutes.FileHandler.of(config().getString("files", RouterRoutes.FileHandler.STATIC_FILES.label()));
    statics = RouterRoutes.staticRoute(root, files);
    return vertx.createHttpServer(new HttpServerOptions().setTcpNoDelay(true).setAcceptBacklog(4096))
        .requestHandler(RouterRoutes.router(vertx, statics))
        .listen(port);
  }

  @Override
  public Future<?> stop() throws Exception {
    if (statics != null) {
      RouterRoutes.close(statics);
    }
    return super.stop();
  }
}
