package io.portshare.runtime;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServerOptions;
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

  /** The name Vert.x gives its HTTP/1.x request decoder in a connection's pipeline. */
  private static final String VERTX_DECODER = "httpDecoder";

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
   * Vert.x's HTTP/1.x request decoder for these options, which also refuses a request head with
   * more than one Content-Length line in HTTP/1.0 (Netty refuses them in HTTP/1.1 only, and in
   * HTTP/1.0 keeps the first value before any handler can see the others): the head comes out with
   * a failed decoder result, as a malformed one does.
   */
  public static ChannelHandler httpRequestDecoder(HttpServerOptions options) {
    return new OneContentLengthDecoder(options);
  }

  /**
   * Puts {@link #httpRequestDecoder} in place of Vert.x's decoder on this HTTP/1.x connection. Call
   * it from the server's connection handler, which runs before the connection reads a byte.
   */
  public static void refuseRepeatedContentLength(HttpConnection connection, HttpServerOptions options) {
    // Throws if Vert.x named it otherwise: a check that silently stopped would be worse.
    handlerContext(connection).pipeline().replace(VERTX_DECODER, VERTX_DECODER, httpRequestDecoder(options));
  }

  /**
   * A Buffer over these bytes, not a copy of them: a change to one shows in the other, and a direct
   * ByteBuf goes to the socket as it is.
   */
  public static Buffer buffer(ByteBuf bytes) {
    return BufferInternal.buffer(bytes);
  }
}
