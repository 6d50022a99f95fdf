package io.portshare.runtime.net;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.portshare.runtime.NettyAccess;
import java.util.concurrent.TimeUnit;

/**
 * Answers an HTTP/1.x client that half-closes (shutdown(SHUT_WR) after its requests, as
 * {@code nc -N} and some load tools do), then closes, as nginx does. Vert.x 5 leaves Netty's
 * {@link ChannelOption#ALLOW_HALF_CLOSURE} off, so Netty closes a connection as soon as it reads
 * the client's FIN, and an answer produced later (after a timer, a worker's lookup) never leaves.
 * With that option on, Netty keeps the connection and fires a {@link ChannelInputShutdownEvent},
 * which Vert.x ignores; this handler, first in the pipeline of each connection of an HTTP server,
 * turns it into Vert.x's graceful shutdown of that connection ({@link NettyAccess#gracefulShutdown}),
 * which answers the request in flight and one pipelined behind it, then closes, or closes at once
 * when none is in flight; a third pipelined request is dropped, as a drain drops it. A connection
 * Vert.x does not serve as HTTP/1.x at that moment (no byte read yet on a server that may speak
 * HTTP/2, a TLS handshake, a WebSocket, HTTP/2) is closed at once, as before.
 */
@ChannelHandler.Sharable
final class HalfClosedHttp extends ChannelInboundHandlerAdapter {

  static final HalfClosedHttp INSTANCE = new HalfClosedHttp();

  /**
   * No bound of its own: a request waiting for its answer on a half-closed connection is bounded as
   * on any other, by the idle timeout and the drain.
   */
  private static final long NO_BOUND_DAYS = 365L * 100;

  private HalfClosedHttp() {}

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
    // The decoders see it first: they hand on the last bytes the client sent.
    ctx.fireUserEventTriggered(event);
    if (event instanceof ChannelInputShutdownEvent && ctx.channel().isActive()) {
      if (NettyAccess.servesHttp1(ctx.pipeline())) {
        ctx.fireUserEventTriggered(NettyAccess.gracefulShutdown(NO_BOUND_DAYS, TimeUnit.DAYS));
      } else {
        ctx.close();
      }
    }
  }
}
