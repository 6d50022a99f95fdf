package io.portshare.rpc.client;

import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetServerOptions;
import io.vertx.core.net.NetSocket;
import java.util.concurrent.TimeUnit;

/**
 * The other end of the client's connections in these tests: a real TCP server on a loopback port
 * the kernel chooses, whose every connection gets {@code connection}. The server itself lives in
 * rpc-server, which depends on this module; an echo of raw bytes is that protocol's whole answer,
 * and a peer that answers wrongly is what the client's error paths are for.
 */
final class Peer {

  private final NetServer server;

  private Peer(NetServer server) {
    this.server = server;
  }

  static Peer start(Vertx vertx, Handler<NetSocket> connection) throws Exception {
    NetServer server = vertx.createNetServer(new NetServerOptions().setHost("127.0.0.1").setPort(0));
    server.connectHandler(connection);
    return new Peer(get(server.listen()));
  }

  /** Writes back every byte it reads, as it reads it. */
  static Peer echo(Vertx vertx) throws Exception {
    return start(vertx, so -> so.handler(so::write));
  }

  void close() throws Exception {
    get(server.close());
  }

  int port() {
    return server.actualPort();
  }

  static <T> T get(Future<T> f) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
  }
}
