package io.portshare.runtime;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.impl.Http1xServerConnection;
import io.vertx.core.internal.buffer.BufferInternal;
import io.vertx.core.internal.net.NetSocketInternal;
import io.vertx.core.net.NetSocket;
import io.vertx.core.net.impl.ShutdownEvent;
import io.vertx.core.net.impl.VertxHandler;
import java.util.concurrent.TimeUnit;

/**
 * The Netty layer under a Vert.x connection, for a service that adds a handler of its own to a
 * connection's pipeline or decodes Vert.x Buffers with Netty ({@link BufferBytes}). Vert.x reaches
 * it only through its internal classes; this is the one place a service goes through, so a Vert.x
 * upgrade that moves them changes this class and nothing in the services.
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
   * True when Vert.x serves {@code pipeline}'s connection as an HTTP/1.x server connection (not yet
   * or no longer: before its first bytes chose HTTP/1.x or HTTP/2, during a TLS handshake, after an
   * upgrade to a WebSocket or HTTP/2).
   */
  public static boolean servesHttp1(ChannelPipeline pipeline) {
    VertxHandler<?> handler = pipeline.get(VertxHandler.class);
    return handler != null && handler.getConnection() instanceof Http1xServerConnection;
  }

  /**
   * Vert.x's graceful shutdown of one connection, as its server's shutdown broadcasts it: fired into
   * the pipeline of an HTTP/1.x server connection ({@link #servesHttp1}), the connection answers the
   * request it is answering and the one it has begun reading behind it, drops any pipelined after
   * those, then closes; with none, it closes at once ({@code Http1xServerConnection.handleShutdown},
   * {@code handleMessage}, {@code responseComplete} in Vert.x 5.0.7). Vert.x closes it anyway after
   * {@code timeout}.
   */
  public static Object gracefulShutdown(long timeout, TimeUnit unit) {
    return new ShutdownEvent(timeout, unit);
  }

  /**
   * How a service on Vert.x's API reads a Buffer with a Netty decoder and writes a decoded part
   * back: in place, through Vert.x's internal {@code BufferInternal}, or on Vert.x's public API, with
   * a copy each way. The runtime hands a service the one {@code --channel} asks for
   * ({@link ServiceContext#bufferBytes}): {@link #VIEWS} on {@code lean}, {@link #COPIES} on
   * {@code netty}, the stock path, so the build's second run of a suite shows the service works
   * without these internals.
   */
  public enum BufferBytes {
    /**
     * No copy: the ByteBuf under the Buffer and a Buffer over the ByteBuf. {@code NettyAccessBufferTest}
     * fails if an upgrade makes either a copy or shares the indexes.
     */
    VIEWS {
      @Override
      public ByteBuf byteBuf(Buffer buffer) {
        return ((BufferInternal) buffer).getByteBuf();
      }

      @Override
      public Buffer buffer(ByteBuf bytes, int index, int length) {
        // The slice holds a reference of its own: the caller releases its own as it always would.
        return BufferInternal.buffer(bytes.retainedSlice(index, length));
      }
    },
    /**
     * Vert.x's public API only, the stock path: each Buffer read, and each part written back, copied
     * once onto the heap, where nothing needs releasing.
     */
    COPIES {
      @Override
      public ByteBuf byteBuf(Buffer buffer) {
        return Unpooled.wrappedBuffer(buffer.getBytes());
      }

      @Override
      public Buffer buffer(ByteBuf bytes, int index, int length) {
        return Buffer.buffer(ByteBufUtil.getBytes(bytes, index, length));
      }
    };

    /**
     * The bytes of {@code buffer} as a ByteBuf whose indexes are its own, so a decoder may read it
     * through without moving the Buffer's; it needs no release.
     */
    public abstract ByteBuf byteBuf(Buffer buffer);

    /**
     * A Buffer of {@code length} bytes of {@code bytes} from {@code index} that stays readable, for a
     * write on a socket, once the caller has released its reference to {@code bytes}.
     */
    public abstract Buffer buffer(ByteBuf bytes, int index, int length);
  }
}
