package io.portshare.statics;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.ReferenceCountUtil;

/**
 * Answers a request of any version but HTTP/1.0 and HTTP/1.1 itself, in HTTP/1.1, and closes:
 * 505 for another HTTP version, 400 for something that is not HTTP. Vert.x would answer it with
 * the request's own version token in the status line ("XTTP/1.1 400", "HTTP/2.0 501"), which an
 * HTTP/1.1 server must not do (RFC 9110 section 6.2). Sits just before Vert.x's handler.
 */
final class VersionGuard extends ChannelInboundHandlerAdapter {

  private final StaticMetrics metrics;
  private boolean rejected;

  VersionGuard(StaticMetrics metrics) {
    this.metrics = metrics;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (rejected) {
      ReferenceCountUtil.release(msg);
      return;
    }
    if (msg instanceof HttpRequest) {
      HttpVersion v = ((HttpRequest) msg).protocolVersion();
      if (v != HttpVersion.HTTP_1_1 && v != HttpVersion.HTTP_1_0) {
        rejected = true;
        ReferenceCountUtil.release(msg);
        reject(ctx, "HTTP".equals(v.protocolName()) ? HttpResponseStatus.HTTP_VERSION_NOT_SUPPORTED
            : HttpResponseStatus.BAD_REQUEST);
        return;
      }
    }
    ctx.fireChannelRead(msg);
  }

  private void reject(ChannelHandlerContext ctx, HttpResponseStatus status) {
    metrics.badVersions++;
    FullHttpResponse answer = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, Unpooled.EMPTY_BUFFER);
    answer.headers()
        .set(HttpHeaderNames.CONTENT_LENGTH, HttpHeaderValues.ZERO)
        .set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
    ctx.channel().config().setAutoRead(false);
    ctx.writeAndFlush(answer).addListener(ChannelFutureListener.CLOSE);
  }
}
