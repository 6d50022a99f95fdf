package io.portshare.runtime;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.internal.buffer.BufferInternal;
import io.vertx.core.internal.net.NetSocketInternal;
import io.vertx.core.net.NetSocket;
import io.vertx.core.net.impl.ConnectionBase;

/**
 * The Netty layer under a Vert.x connection, for a service that adds a handler of its own to a
 * connection's pipeline or hands Netty bytes to Vert.x. Vert.x reaches it only through its internal
 * classes; this is the one place a service goes through, so a Vert.x upgrade that moves them
 * changes this class and nothing in the services.
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

  /**
   * The context of Vert.x's own handler on an HTTP/1.x server connection's pipeline, the decoder
   * before it: a handler added before it sees requests decoded, and its pipeline the raw bytes.
   */
  public static ChannelHandlerContext handlerContext(HttpConnection connection) {
    return ((ConnectionBase) connection).channelHandlerContext();
  }

  /**
   * A Buffer over these bytes, not a copy of them: a change to one shows in the other, and a direct
   * ByteBuf goes to the socket as it is.
   */
  public static Buffer buffer(ByteBuf bytes) {
    return BufferInternal.buffer(bytes);
  }
}
