package io.portshare.bench.ledger;

import io.portshare.runtime.config.ExitCodes;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpServerOptions;
import java.nio.file.Path;

/**
 * The ledger's stock Vert.x static row: an {@code HttpServer} on one event loop (native epoll) that
 * answers {@code GET /NAME} with {@code sendFile(ROOT/NAME)}, as the Vert.x documentation writes a
 * file server (no path checks beyond refusing "..": the ledger asks for its own files only).
 * Args: PORT ROOT.
 */
public final class VertxHttp {

  private VertxHttp() {}

  public static void main(String[] args) {
    int port = Integer.parseInt(args[0]);
    String root = Path.of(args[1]).toAbsolutePath().toString();
    Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1).setPreferNativeTransport(true));
    vertx.createHttpServer(new HttpServerOptions().setTcpNoDelay(true).setAcceptBacklog(4096))
        .requestHandler(req -> {
          String path = req.path();
          if (path.contains("..")) {
            req.response().setStatusCode(400).end();
          } else {
            req.response().sendFile(root + path).onFailure(e -> req.response().setStatusCode(404).end());
          }
        })
        .listen(port)
        .onSuccess(s -> System.out.println("vertx-http listening on port " + s.actualPort()
            + (vertx.isNativeTransportEnabled() ? " (native transport)" : " (NIO)")))
        .onFailure(e -> {
          e.printStackTrace();
          System.exit(ExitCodes.SOFTWARE);
        });
  }
}
