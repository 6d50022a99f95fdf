package io.portshare.runtime;

import io.netty.channel.Channel;

/**
 * Sets up the Netty pipeline of one accepted connection, for a service that serves its protocol on
 * Netty's pipeline rather than through Vert.x's {@code NetSocket} or HTTP server
 * ({@link ServiceContext#listen(io.vertx.core.net.NetServerOptions, ConnectionInitializer)}).
 */
@FunctionalInterface
public interface ConnectionInitializer {

  /**
   * Called on the connection's event loop, which is the listening verticle instance's own, once the
   * runtime has counted the connection and before it reads a byte: add the handlers. The handlers
   * drain on {@link DrainEvent}; an idle timeout is theirs too, checked from
   * {@link ServiceContext#sweepConnections}, one sweep per event loop.
   */
  void initConnection(Channel connection);
}
