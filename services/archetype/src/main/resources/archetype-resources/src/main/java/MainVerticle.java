package ${package};

import io.portshare.runtime.ServiceVerticle;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetClientOptions;
import io.vertx.ext.healthchecks.Status;
import io.portshare.web.StaticFiles;
import io.vertx.ext.web.Router;

/**
 * One instance of ${artifactId}: a vertx-web Router on the shared port, on this event loop. What
 * is portshare's here is the server's options, the listen and the readiness check; the routes are
 * plain vertx-web.
 *
 * <ul>
 *   <li>{@code GET /hello}: the {@code greeting} option and the config's {@code audience}
 *       ("hello, world" by default);</li>
 *   <li>{@code GET /config}: this verticle's {@code config()}, the config file's {@code service:}
 *       section;</li>
 *   <li>any other path: a file of the jar's {@code webroot} (/ is its index.html), by portshare-web's
 *       {@link StaticFiles}, which passes what it does not have to the next route (a 404 here).</li>
 * </ul>
 * Its readiness check "downstream" (on the admin port's /health/ready) is OK while the TCP address
 * in {@code service.downstream} (host, port) accepts a connection, and always OK without one.
 */
public final class MainVerticle extends ServiceVerticle {

  static final String READINESS_CHECK = "downstream";

  private NetClient client;
  /** The webroot's handler, closed in stop(): it keeps the large files it sends by sendfile open. */
  private StaticFiles files;

  @Override
  public Future<?> start() {
    String hello = service.settings().getString(MainService.GREETING) + ", "
        + config().getString("audience", "world") + "\n";
    JsonObject downstream = config().getJsonObject("downstream");
    client = vertx.createNetClient(new NetClientOptions().setConnectTimeout(1000));
    service.readinessCheck(READINESS_CHECK, status -> {
      if (downstream == null) {
        status.complete(Status.OK(new JsonObject().put("configured", false)));
        return;
      }
      client.connect(downstream.getInteger("port"), downstream.getString("host", "localhost"))
          .onSuccess(socket -> {
            socket.close();
            status.complete(Status.OK());
          })
          .onFailure(e -> status.complete(Status.KO(new JsonObject().put("error", String.valueOf(e.getMessage())))));
    });

    Router router = Router.router(vertx);
    router.get("/hello").handler(ctx -> ctx.response()
        .putHeader("content-type", "text/plain; charset=utf-8")
        .end(hello));
    router.get("/config").handler(ctx -> ctx.json(config()));
    files = StaticFiles.classpath("webroot").build();
    router.route().handler(files);
    return service.listen(vertx.createHttpServer(service.httpServerOptions()).requestHandler(router));
  }

  /** Closes the files StaticFiles keeps open (an answer still being sent closes its own when done). */
  @Override
  public Future<?> stop() throws Exception {
    if (files != null) {
      files.close();
    }
    return super.stop();
  }
}
