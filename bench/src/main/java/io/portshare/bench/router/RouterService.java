package io.portshare.bench.router;

import io.portshare.runtime.Option;
import io.portshare.runtime.ServiceDescriptor;
import io.portshare.runtime.ServiceVerticle;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.ext.web.RoutingContext;
import java.nio.file.Path;
import java.util.List;

/**
 * The ledger's Router verticle on the portshare runtime ({@code --service router}): {@link RouterRoutes}
 * behind an {@code HttpServer} listened through the runtime, as the generated service's verticle does;
 * {@code --files statichandler} serves the static route with vertx-web's StaticHandler instead of StaticFiles.
 */
public final class RouterService implements ServiceDescriptor {

  static final String ROOT = "root";
  static final String FILES = "files";

  @Override
  public String name() {
    return "router";
  }

  @Override
  public String description() {
    return "router: a vertx-web Router (GET /hello and portshare-web's StaticFiles on --root), the ledger's Vert.x-API row";
  }

  @Override
  public int defaultPort() {
    return 8000;
  }

  @Override
  public int defaultAdminPort() {
    return 8001;
  }

  @Override
  public List<Option> options() {
    return List.of(Option.path(ROOT, ".", "directory the static route serves"),
        Option.choice(FILES, RouterRoutes.FileHandler.STATIC_FILES.label(), "the static route's handler: staticfiles "
            + "(portshare-web's StaticFiles) or statichandler (vertx-web's StaticHandler)",
            RouterRoutes.FileHandler.STATIC_FILES.label(), RouterRoutes.FileHandler.STATIC_HANDLER.label()));
  }

  @Override
  public ServiceVerticle newVerticle() {
    return new ServiceVerticle() {
      private Handler<RoutingContext> statics;

      @Override
      public Future<?> start() {
        String root = Path.of(service.settings().getString(ROOT)).toAbsolutePath().toString();
        statics = RouterRoutes.staticRoute(root, RouterRoutes.FileHandler.of(service.settings().getString(FILES)));
        return service.listen(vertx.createHttpServer(service.httpServerOptions())
            .requestHandler(RouterRoutes.router(vertx, statics)));
      }

      @Override
      public Future<?> stop() throws Exception {
        if (statics != null) {
          RouterRoutes.close(statics);
        }
        return super.stop();
      }
    };
  }
}
