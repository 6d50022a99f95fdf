package io.portshare.bench.ledger;

import io.portshare.runtime.config.ExitCodes;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.net.NetServerOptions;

/**
 * The ledger's stock Vert.x RPC row: a {@code NetServer} on one event loop (native epoll) whose
 * sockets write back what they read, as any Vert.x user would write an echo server. Args: PORT.
 */
public final class VertxEcho {

  private VertxEcho() {}

  public static void main(String[] args) {
    int port = Integer.parseInt(args[0]);
    Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1).setPreferNativeTransport(true));
    vertx.createNetServer(new NetServerOptions().setTcpNoDelay(true).setAcceptBacklog(4096))
        .connectHandler(socket -> socket.handler(socket::write))
        .listen(port)
        .onSuccess(s -> System.out.println("vertx-echo listening on port " + s.actualPort()
            + (vertx.isNativeTransportEnabled() ? " (native transport)" : " (NIO)")))
        .onFailure(e -> {
          e.printStackTrace();
          System.exit(ExitCodes.SOFTWARE);
        });
  }
}
