package io.portshare.web;

import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.ext.web.Router;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.function.UnaryOperator;

/**
 * A Router with StaticFiles at "/" and a 404 after it, run as StaticFiles' javadoc says: the handler
 * built in start() and closed in stop(). Its {@link #main} runs one in a process of its own, for a test
 * to trace.
 */
final class RouterVerticle extends VerticleBase {

  private final Path root;
  private final UnaryOperator<StaticFiles.Builder> settings;
  private StaticFiles files;
  private volatile int port;

  RouterVerticle(Path root, UnaryOperator<StaticFiles.Builder> settings) {
    this.root = root;
    this.settings = settings;
  }

  @Override
  public Future<?> start() {
    files = settings.apply(StaticFiles.webroot(root)).build();
    Router router = Router.router(vertx);
    router.route().handler(files);
    router.route().handler(ctx -> ctx.response().setStatusCode(404).end());
    return vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1")
        .onSuccess(server -> port = server.actualPort());
  }

  @Override
  public Future<?> stop() throws Exception {
    files.close();
    return super.stop();
  }

  int port() {
    return port;
  }

  /**
   * {@code RouterVerticle ROOT MARK [OPEN_FILES_MAX]}: deploys one on ROOT, prints {@code port N} once it
   * listens, and when its standard input closes undeploys it, then tries to open MARK (a path that is
   * not there), so that a trace of openat(2) shows where the undeploy ended, and exits.
   */
  public static void main(String[] args) throws Exception {
    Vertx vertx = Vertx.vertx();
    RouterVerticle verticle = new RouterVerticle(Path.of(args[0]),
        b -> args.length > 2 ? b.openFilesMax(Integer.parseInt(args[2])) : b);
    String id = vertx.deployVerticle(verticle).await();
    System.out.println("port " + verticle.port());
    System.out.flush();
    System.in.transferTo(OutputStream.nullOutputStream());
    vertx.undeploy(id).await();
    try {
      Files.newByteChannel(Path.of(args[1])).close();
      throw new IllegalStateException("the mark " + args[1] + " exists");
    } catch (NoSuchFileException expected) {
      // its openat(2) is in the trace: what follows it is Vert.x closing
    }
    vertx.close().await();
  }
}
