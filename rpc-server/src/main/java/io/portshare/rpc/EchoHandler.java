package io.portshare.rpc;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.concurrent.ScheduledFuture;
import io.portshare.rpc.codec.FrameDecoder;
import io.portshare.rpc.codec.RpcFrame;
import io.portshare.runtime.DrainEvent;
import io.portshare.runtime.LingeringClose;
import io.portshare.runtime.Outbound;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The echo of one connection, the last handler of its pipeline: frames are answered
 * with a slice of the very buffer they arrived in (the answer to a frame is the frame), frames
 * that lie next to each other in one read leave as one slice, and the connection flushes once per
 * read. While the socket's outbound buffer is above its high-water mark, reading stops.
 *
 * <p>Each frame is timed from the read that completed it to the flush that wrote its echo: one clock
 * read per read and one per flush, the frames of a read recorded together. Netty reads several
 * times before the flush (up to its messages per read), so each read's time and frames wait in two
 * small arrays until then; they grow only for a connection that reads more times in one turn than
 * any before. A flush that leaves bytes in the socket's way records them as flushed: past that, the
 * peer's reading is what waits, and reading stops for it (the high-water mark) rather than queueing.
 */
final class EchoHandler extends ChannelInboundHandlerAdapter implements FrameDecoder.FrameHandler, FrameRun.Writer {

  private final FrameDecoder decoder;
  private final RpcMetrics metrics;
  /** The clock frames are timed on. */
  private final LongSupplier clock;
  private ChannelHandlerContext ctx;
  /** The buffer being decoded, and the run of whole frames in it not yet written. */
  private ByteBuf current;
  private final FrameRun run = new FrameRun(this);
  private boolean closing;
  private boolean draining;
  /** While draining: whether the peer has gone quiet, to close at the frame boundary after it. */
  private final QuietTicks drainTicks = new QuietTicks();
  private long bytesReceived;
  /** What the last idle sweep saw: bytes received so far, and bytes waiting to go out. */
  private long receivedAtSweep;
  private long pendingAtSweep;
  private int quietSweeps;
  private ScheduledFuture<?> drainTicker;
  private ScheduledFuture<?> ageTimer;
  /** The reads since the last flush that completed frames: when each was read, and its frames. */
  private long[] readAt = new long[16];
  private int[] framesRead = new int[16];
  private int reads;

  EchoHandler(int maxPayload, RpcMetrics metrics) {
    this(maxPayload, metrics, System::nanoTime);
  }

  /** As the other, timing frames on {@code clock} ({@link System#nanoTime}'s kind): a test's. */
  EchoHandler(int maxPayload, RpcMetrics metrics, LongSupplier clock) {
    this.decoder = new FrameDecoder(maxPayload);
    this.metrics = metrics;
    this.clock = clock;
  }

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    this.ctx = ctx;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (!(msg instanceof ByteBuf)) {
      ctx.fireChannelRead(msg);
      return;
    }
    ByteBuf in = (ByteBuf) msg;
    try {
      if (closing) {
        return;
      }
      long now = clock.getAsLong();
      long framesBefore = metrics.transactions();
      int n = in.readableBytes();
      bytesReceived += n;
      metrics.countReceived(n);
      current = in;
      run.begin(in.readerIndex());
      boolean ok = decoder.decode(in, this);
      run.write();
      if (metrics.transactions() != framesBefore) {
        frames(now, (int) (metrics.transactions() - framesBefore));
      }
      if (!ok) {
        reject();
      } else if (!ctx.channel().isWritable()) {
        // The peer reads slower than it writes: stop reading until the answers drain (Netty's
        // read loop checks auto-read between reads, so at most one more buffer comes in).
        ctx.channel().config().setAutoRead(false);
        drainTicks.paused();
      }
    } finally {
      current = null;
      in.release();
    }
  }

  @Override
  public void onFrame(ByteBuf buf, int frameIndex, int payloadLength) {
    metrics.countAnswered();
    int frameLength = RpcFrame.HEADER_LENGTH + payloadLength;
    if (buf == current) {
      run.add(frameIndex, frameLength);
    } else {
      // A frame completed from bytes kept across reads: its buffer is freed once this returns.
      write(buf.retainedSlice(frameIndex, frameLength));
    }
  }

  @Override
  public void writeRun(int from, int to) {
    write(current.retainedSlice(from, to - from));
  }

  private void write(ByteBuf answer) {
    metrics.countSent(answer.readableBytes());
    ctx.write(answer, ctx.voidPromise());
  }

  private void frames(long readNanos, int frames) {
    if (reads == readAt.length) {
      readAt = Arrays.copyOf(readAt, reads * 2);
      framesRead = Arrays.copyOf(framesRead, reads * 2);
    }
    readAt[reads] = readNanos;
    framesRead[reads++] = frames;
  }

  @Override
  public void channelReadComplete(ChannelHandlerContext ctx) {
    ctx.flush();
    if (reads > 0) {
      long now = clock.getAsLong();
      for (int i = 0; i < reads; i++) {
        metrics.recordFrames(now - readAt[i], framesRead[i]);
      }
      reads = 0;
    }
  }

  @Override
  public void channelWritabilityChanged(ChannelHandlerContext ctx) {
    if (ctx.channel().isWritable() && !closing) {
      ctx.channel().config().setAutoRead(true);
    }
    ctx.fireChannelWritabilityChanged();
  }

  private void reject() {
    metrics.countRejectedFrame();
    // The answers to the frames before the bad one still go out; until they have, nothing more
    // is read, so a peer that never reads is left to the idle timeout.
    ctx.channel().config().setAutoRead(false);
    closeAfterAnswers();
  }

  /**
   * Drains this connection, as a server shutdown would, once it has lived {@code lifetimeNanos}
   * (--max-connection-age): the client reconnects, and its new connection may land on a new pod.
   */
  void drainAfter(long lifetimeNanos) {
    ageTimer = ctx.executor().schedule(this::startDrain, lifetimeNanos, TimeUnit.NANOSECONDS);
  }

  /**
   * Called on this connection's event loop when the server shuts down: answers what has been
   * received, then closes at the first frame boundary after a tick with nothing read.
   */
  void startDrain() {
    if (draining || closing) {
      return;
    }
    draining = true;
    drainTicks.start(bytesReceived, !ctx.channel().config().isAutoRead());
    drainTicker = ctx.executor().scheduleAtFixedRate(this::drainTick, QuietTicks.SETTLE_MILLIS,
        QuietTicks.SETTLE_MILLIS, TimeUnit.MILLISECONDS);
  }

  private void drainTick() {
    boolean quiet = drainTicks.quiet(bytesReceived, ctx.channel().config().isAutoRead());
    if (quiet && !closing && decoder.atFrameBoundary()) {
      metrics.countDrainClosed();
      closeAfterAnswers();
    }
  }

  /**
   * Stops answering, sends what is queued, then half-closes and lets the peer close (or the
   * linger time pass; {@link LingeringClose}); bytes that arrive meanwhile are read and dropped.
   */
  private void closeAfterAnswers() {
    closing = true;
    if (drainTicker != null) {
      drainTicker.cancel(false);
    }
    LingeringClose.after(ctx, Unpooled.EMPTY_BUFFER);
  }

  /**
   * Called by the event loop's idle sweep once per period: true once this connection has read
   * nothing and sent nothing for {@code sweeps} sweeps in a row. Answers queued that do not move
   * (a peer that stopped reading) count as nothing sent. Nothing on the read or write path reads a
   * clock or schedules a timer for this: the sweep compares two counters.
   */
  boolean quietFor(int sweeps) {
    long pending = Outbound.pendingBytes(ctx.channel());
    if (bytesReceived == receivedAtSweep && pending == pendingAtSweep) {
      quietSweeps++;
    } else {
      quietSweeps = 0;
      receivedAtSweep = bytesReceived;
      pendingAtSweep = pending;
    }
    return quietSweeps >= sweeps;
  }

  /** Nothing read or written for --idle-timeout: the peer is gone or forgot us. */
  void closeIdle() {
    metrics.countIdleClosed();
    closing = true;
    ctx.close();
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
    if (evt == DrainEvent.INSTANCE) {
      startDrain();
    } else {
      ctx.fireUserEventTriggered(evt);
    }
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    metrics.countConnectionError(cause);
    closing = true;
    ctx.close();
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    closing = true;
    if (drainTicker != null) {
      drainTicker.cancel(false);
    }
    if (ageTimer != null) {
      ageTimer.cancel(false);
    }
    decoder.release();
    ctx.fireChannelInactive();
  }
}
