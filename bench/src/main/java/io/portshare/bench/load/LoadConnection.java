package io.portshare.bench.load;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;

/**
 * One connection slot of a load run on a raw Netty channel: connects, lets the subclass decide
 * when requests go out, checks every reply ({@link Wire}: byte for byte against an RPC request, status and
 * length of an HTTP answer), and after
 * {@code perConnection} answers (or an error) closes with a reset and connects again. The slot is
 * the only handler of each channel it opens (one at a time, hence {@code @Sharable}), so a
 * connection costs Netty's channel and nothing else: no codec, no promise per write, no timer per
 * connect. Runs on its loop's thread only.
 */
@Sharable
abstract class LoadConnection extends ChannelInboundHandlerAdapter implements ChannelFutureListener {

  private static final int IDLE = 0;
  private static final int CONNECTING = 1;
  private static final int OPEN = 2;
  private static final int CLOSING = 3;
  /** Back-off after a failed connect, so a refused port does not turn into a busy loop. */
  static final long RECONNECT_DELAY_NANOS = 20_000_000;

  final LoopLoad loop;
  final LoopStats stats;
  final int perConnection;
  /** The request; unreleasable, shared read-only. */
  final ByteBuf frame;
  /** Tells when a reply is whole and right ({@link Wire}). */
  private final ReplyReader reader;

  Channel channel;
  private int state = IDLE;
  private boolean stopped;
  long connectStart;
  long lastActivity;
  int sentOnConnection;
  int answeredOnConnection;

  LoadConnection(LoopLoad loop, Wire wire, int perConnection) {
    this.loop = loop;
    this.stats = loop.stats;
    this.frame = wire.request();
    this.reader = wire.newReader();
    this.perConnection = perConnection;
  }

  /** Called once the connection is open and nothing is in flight. */
  abstract void opened(long now);

  /** Called for each reply that matched its request. */
  abstract void answered(long now);

  final boolean isOpen() {
    return state == OPEN;
  }

  /** Whether a new connection is still wanted at {@code now}: in a closed loop, until the window ends. */
  boolean wantsConnection(long now) {
    return !stats.clock.over(now);
  }

  /** Nanoseconds to wait at {@code now} before connecting; 0 (the default) connects at once. */
  long connectDelay(long now) {
    return 0;
  }

  final void connect() {
    long now = System.nanoTime();
    if (stopped || !wantsConnection(now)) {
      return;
    }
    long wait = connectDelay(now);
    if (wait > 0) {
      loop.later(wait, this::connect);
      return;
    }
    state = CONNECTING;
    connectStart = now;
    lastActivity = now;
    channel = loop.connect(this);
  }

  /** The connect finished (the channel's connect future). */
  @Override
  public final void operationComplete(ChannelFuture f) {
    if (f.isSuccess() || f.channel() != channel) {
      return; // channelActive goes on; a stale future belongs to a channel already given up
    }
    long now = System.nanoTime();
    stats.error(ErrorKind.of(f.cause()), now);
    f.channel().close();
    channel = null;
    state = IDLE;
    if (!stopped) {
      loop.later(RECONNECT_DELAY_NANOS, this::connect);
    }
  }

  @Override
  public final void channelActive(ChannelHandlerContext ctx) {
    if (stopped || ctx.channel() != channel) {
      ctx.close();
      return;
    }
    state = OPEN;
    sentOnConnection = 0;
    answeredOnConnection = 0;
    reader.reset();
    long now = System.nanoTime();
    lastActivity = now;
    opened(now);
  }

  @Override
  public final void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (!(msg instanceof ByteBuf buf) || ctx.channel() != channel) {
      ReferenceCountUtil.release(msg);
      return;
    }
    try {
      if (state != OPEN) {
        return;
      }
      long now = System.nanoTime();
      lastActivity = now;
      int index = buf.readerIndex();
      int end = buf.writerIndex();
      while (index < end) {
        if (answeredOnConnection >= sentOnConnection) {
          fail(ErrorKind.WRONG_PAYLOAD, now); // bytes nobody asked for
          return;
        }
        index += reader.read(buf, index, end);
        if (reader.error != null) {
          fail(reader.error, now);
          return;
        }
        if (reader.complete) {
          answeredOnConnection++;
          answered(now);
          if (state != OPEN) {
            return;
          }
        }
      }
    } finally {
      buf.release();
    }
  }

  @Override
  public final void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    if (ctx.channel() == channel && state == OPEN) {
      fail(ErrorKind.of(cause), System.nanoTime());
    } else {
      ctx.close();
    }
  }

  @Override
  public final void channelInactive(ChannelHandlerContext ctx) {
    if (ctx.channel() != channel) {
      return;
    }
    long now = System.nanoTime();
    if (state == OPEN && answeredOnConnection < sentOnConnection) {
      stats.error(reader.cutShort(), now);
    }
    channel = null;
    state = IDLE;
    connect();
  }

  /** Counts an error and drops the connection; channelInactive connects again. */
  final void fail(ErrorKind kind, long now) {
    stats.error(kind, now);
    close();
  }

  /** Closes (with a reset: SO_LINGER 0); channelInactive connects again. */
  final void close() {
    if (channel != null && state != CLOSING) {
      state = CLOSING;
      channel.close();
    }
  }

  /** A connect or a reply has been outstanding with nothing arriving for longer than the timeout. */
  final void checkTimeout(long now, long timeoutNanos) {
    if (now - lastActivity <= timeoutNanos) {
      return;
    }
    if (state == CONNECTING) {
      stats.error(ErrorKind.TIMEOUT, now);
      Channel c = channel;
      channel = null; // its future and events are stale from here on
      state = IDLE;
      c.close();
      connect();
    } else if (state == OPEN && answeredOnConnection < sentOnConnection) {
      fail(ErrorKind.TIMEOUT, now);
    }
  }

  final void stop() {
    stopped = true;
    if (channel != null) {
      state = CLOSING;
      channel.close();
    }
  }
}
