package io.portshare.statics;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpRequest;

/**
 * --max-connection-age for HTTP keep-alive: the first request head to arrive after the connection's
 * lifetime is marked {@code Connection: close}, as if the client had asked, so the server answers
 * it (with {@code Connection: close}) and then closes, between two requests. The client opens a new
 * connection, which may land on another pod. Sits after the HTTP decoder; no timer per connection.
 */
final class ConnectionAgeLimit extends ChannelInboundHandlerAdapter {

  private final long closeAtNanos;
  private boolean aged;

  ConnectionAgeLimit(long lifetimeNanos) {
    this.closeAtNanos = System.nanoTime() + lifetimeNanos;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (msg instanceof HttpRequest && (aged || System.nanoTime() - closeAtNanos >= 0)) {
      aged = true;
      ((HttpRequest) msg).headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
    }
    ctx.fireChannelRead(msg);
  }
}
