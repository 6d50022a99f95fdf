package io.portshare.runtime.net;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * On a listening socket: when accept(2) fails, says why in one line (at most every ten seconds,
 * with the count in between) and stops accepting for a second, as Netty's own acceptor would;
 * connections meanwhile wait in the kernel's backlog and are served once descriptors free up.
 */
@ChannelHandler.Sharable
public final class AcceptErrorHandler extends ChannelInboundHandlerAdapter {

  private static final Logger LOG = LoggerFactory.getLogger(AcceptErrorHandler.class);
  private static final long PAUSE_MILLIS = 1000;
  private static final long LOG_EVERY_NANOS = TimeUnit.SECONDS.toNanos(10);

  private final String service;
  private final LongSupplier openConnections;
  private final LongSupplier nanoClock;
  private final AtomicLong lastLog;
  private final AtomicLong failures = new AtomicLong();

  public AcceptErrorHandler(String service, LongSupplier openConnections) {
    this(service, openConnections, System::nanoTime);
  }

  /** As the public one, on {@code nanoClock} ({@link System#nanoTime}'s kind) for the ten seconds between lines. */
  AcceptErrorHandler(String service, LongSupplier openConnections, LongSupplier nanoClock) {
    this.service = service;
    this.openConnections = openConnections;
    this.nanoClock = nanoClock;
    this.lastLog = new AtomicLong(nanoClock.getAsLong() - LOG_EVERY_NANOS);
    FileLimit.read(); // now, while a descriptor is still free to read it with
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    long n = failures.incrementAndGet();
    long now = nanoClock.getAsLong();
    long last = lastLog.get();
    if (now - last >= LOG_EVERY_NANOS && lastLog.compareAndSet(last, now)) {
      failures.set(0);
      String why = String.valueOf(cause.getMessage());
      if (why.contains("Too many open files")) {
        LOG.warn("{}: cannot accept connections: out of file descriptors (open files limit {}, {} connections "
            + "open, {} failed accepts); waiting connections stay queued; raise the limit or add processes",
            service, FileLimit.describe(), openConnections.getAsLong(), n);
      } else {
        LOG.warn("{}: cannot accept connections: {} ({} failed accepts); retrying in {} ms", service, why, n,
            PAUSE_MILLIS);
      }
    }
    ctx.channel().config().setAutoRead(false);
    ctx.channel().eventLoop().schedule(() -> ctx.channel().config().setAutoRead(true), PAUSE_MILLIS,
        TimeUnit.MILLISECONDS);
  }
}
