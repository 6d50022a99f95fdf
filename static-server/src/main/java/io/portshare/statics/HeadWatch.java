package io.portshare.statics;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.HttpRequest;

/**
 * The request-head clock of one connection, against slowloris: it starts at the first byte of a
 * request and stops when the decoder has the whole head. The idle timeout cannot do this, since
 * every trickled byte resets it; an idle keep-alive connection, with no head begun, is left alone.
 * {@link OpenConnections} sweeps them and closes those whose head took too long.
 * Two field writes per request; no timer per request.
 */
final class HeadWatch {

  final Channel channel;
  /** When the head now arriving began, in epoch millis; 0 when no head is in progress. */
  long headStartedAt;

  HeadWatch(ChannelPipeline pipeline) {
    this.channel = pipeline.channel();
    // Raw bytes, before the HTTP decoder; then decoded messages, just before Vert.x's own handler.
    pipeline.addFirst(new BytesIn());
    pipeline.addBefore("handler", null, new HeadIn());
  }

  boolean overdue(long now, long timeoutMillis) {
    long started = headStartedAt;
    return started != 0 && now - started > timeoutMillis;
  }

  private final class BytesIn extends ChannelInboundHandlerAdapter {
    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      if (headStartedAt == 0) {
        headStartedAt = System.currentTimeMillis();
      }
      ctx.fireChannelRead(msg);
    }
  }

  private final class HeadIn extends ChannelInboundHandlerAdapter {
    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      if (msg instanceof HttpRequest) {
        headStartedAt = 0;
      }
      ctx.fireChannelRead(msg);
    }
  }
}
