package io.portshare.bench.router;

import io.portshare.web.StaticFiles;
import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.Vertx;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.FileSystemAccess;
import io.vertx.ext.web.handler.StaticHandler;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The routes a Vert.x user writes, as {@code deploy/new-service.sh} generates them: a route of the
 * service's own ({@code GET /hello}) and portshare-web's {@link StaticFiles} for everything else. No
 * class of the portshare runtime: the ledger runs the same routes on the portshare runtime
 * ({@link RouterService}) and on stock Vert.x ({@link StockRouterVerticle}), so the two rows differ by the
 * runtime alone. The static route serves a directory of the file system (the generated service serves
 * its jar's {@code webroot}), since the ledger's files are made at run time. {@link FileHandler#STATIC_HANDLER}
 * puts vertx-web's {@code StaticHandler} there instead, the handler the generated routes had before, so
 * that a run shows the handler's share beside the runtime's.
 */
public final class RouterRoutes {

  /** The body of {@code GET /hello}, the dynamic route, and its content type (nginx's peer answers the same). */
  public static final String HELLO = "hello\n";
  public static final String HELLO_TYPE = "text/plain; charset=utf-8";

  // Encoded once, as a user who cares writes a constant answer: the header's name and value as
  // Netty's AsciiString (HttpHeaders.createOptimized), written as bytes with no per-request encoding,
  // and the body as one Buffer, so no request encodes the String again.
  private static final CharSequence CONTENT_TYPE = HttpHeaders.createOptimized("content-type");
  private static final CharSequence HELLO_TYPE_VALUE = HttpHeaders.createOptimized(HELLO_TYPE);
  private static final Buffer HELLO_BODY = Buffer.buffer(HELLO);

  /** Which handler serves the static files. */
  public enum FileHandler {
    /** portshare-web's {@link StaticFiles}, as the generated service and the archetype serve them. */
    STATIC_FILES,
    /** vertx-web's {@code StaticHandler} with its defaults (a directory of the file system). */
    STATIC_HANDLER;

    /** The name in a command line or configuration: {@code staticfiles} or {@code statichandler}. */
    public String label() {
      return name().toLowerCase(Locale.ROOT).replace("_", "");
    }

    public static FileHandler of(String label) {
      for (FileHandler f : values()) {
        if (f.label().equals(label)) {
          return f;
        }
      }
      throw new IllegalArgumentException("unknown static-file handler " + label + "; expected staticfiles or statichandler");
    }
  }

  private RouterRoutes() {}

  /** The routes, {@code statics} (from {@link #staticRoute}) after {@code GET /hello}. */
  public static Router router(Vertx vertx, Handler<RoutingContext> statics) {
    Router router = Router.router(vertx);
    router.get("/hello").handler(ctx -> ctx.response().putHeader(CONTENT_TYPE, HELLO_TYPE_VALUE).end(HELLO_BODY));
    router.route().handler(statics);
    return router;
  }

  /** The static route's handler on {@code root}; the verticle that makes it gives it to {@link #close} in its stop(). */
  public static Handler<RoutingContext> staticRoute(String root, FileHandler files) {
    return switch (files) {
      case STATIC_FILES -> StaticFiles.webroot(Path.of(root)).build();
      case STATIC_HANDLER -> StaticHandler.create(FileSystemAccess.ROOT, root);
    };
  }

  /** Closes the files a StaticFiles route keeps open, as the generated verticle does in its stop(); StaticHandler keeps none. */
  public static void close(Handler<RoutingContext> statics) {
    if (statics instanceof StaticFiles files) {
      files.close();
    }
  }
}
