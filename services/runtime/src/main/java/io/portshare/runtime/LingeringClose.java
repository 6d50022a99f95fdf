package io.portshare.runtime;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.socket.DuplexChannel;
import io.netty.util.concurrent.ScheduledFuture;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Closing a connection of a service's own pipeline as nginx's lingering close does: the last
 * answer, then FIN, then whatever the peer still sends is read (and dropped by the service's
 * handler) until the peer closes too or the linger time has passed. Closing outright with the
 * peer's bytes unread makes the kernel send RST, and RST can throw away answers still on their way
 * to the peer.
 */
public final class LingeringClose {

  /** How long a half-closed connection waits for its peer to close (nginx: lingering_timeout 5 s). */
  public static final Duration LINGER = Duration.ofSeconds(2);

  private LingeringClose() {}

  /**
   * Writes {@code last} (an empty buffer sends what is queued), then half-closes and closes when
   * the peer has closed or {@link #LINGER} has passed. Reading is turned on, so that the peer's
   * bytes are read (the caller's handler drops them) rather than left to make a RST. Where the write
   * fails, or the channel cannot half-close, it closes at once.
   */
  public static void after(ChannelHandlerContext ctx, Object last) {
    after(ctx, last, LINGER);
  }

  /** As {@link #after(ChannelHandlerContext, Object)}, with another linger (tests: shorter and longer). */
  static void after(ChannelHandlerContext ctx, Object last, Duration linger) {
    ctx.writeAndFlush(last).addListener(written -> {
      Channel channel = ctx.channel();
      if (!written.isSuccess() || !(channel instanceof DuplexChannel duplex)) {
        ctx.close();
        return;
      }
      duplex.shutdownOutput().addListener(ChannelFutureListener.CLOSE_ON_FAILURE);
      channel.config().setAutoRead(true);
      ScheduledFuture<?> deadline = ctx.executor().schedule(() -> ctx.close(), linger.toNanos(), TimeUnit.NANOSECONDS);
      channel.closeFuture().addListener(closed -> deadline.cancel(false));
    });
  }
}
