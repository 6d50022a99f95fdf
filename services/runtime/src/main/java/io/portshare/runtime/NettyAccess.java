package io.portshare.runtime;

import io.netty.channel.ChannelHandlerContext;
import io.vertx.core.internal.net.NetSocketInternal;
import io.vertx.core.net.NetSocket;

/**
 * The Netty layer under a Vert.x connection, for a service that adds a handler of its own to a
 * connection's pipeline. Vert.x reaches it only through its internal classes; this is the one place
 * a service goes through, so a Vert.x upgrade that moves them changes this class and nothing in the
 * services.
 */
public final class NettyAccess {

  private NettyAccess() {}

  /**
   * The context of Vert.x's own handler on a TCP connection's pipeline: a handler added before it
   * ({@code pipeline().addBefore(context.name(), ...)}) sees the connection's bytes first.
   */
  public static ChannelHandlerContext handlerContext(NetSocket socket) {
    return ((NetSocketInternal) socket).channelHandlerContext();
  }
}
