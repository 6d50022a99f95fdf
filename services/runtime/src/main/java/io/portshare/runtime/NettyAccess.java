package io.portshare.runtime;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.internal.buffer.BufferInternal;
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

  /**
   * The bytes under a Buffer Vert.x handed over, as a Netty view: the same memory, with indexes of its
   * own, so a decoder may read it through without copying and without moving the Buffer's
   * ({@code NettyAccessTest} fails if an upgrade makes it a copy or shares the indexes).
   */
  public static ByteBuf byteBuf(Buffer buffer) {
    return ((BufferInternal) buffer).getByteBuf();
  }

  /** A Buffer over {@code bytes}, without a copy; writing it to a socket releases them once written. */
  public static Buffer buffer(ByteBuf bytes) {
    return BufferInternal.buffer(bytes);
  }
}
