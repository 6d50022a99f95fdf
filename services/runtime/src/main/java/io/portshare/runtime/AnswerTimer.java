package io.portshare.runtime;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.buffer.UnpooledDirectByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import java.nio.ByteBuffer;

/**
 * Times the answers of one connection of a service's own pipeline to their last byte written: the
 * service writes an answer, then calls {@link #written}, and the time since the answer's start goes
 * into its {@link LatencyHistogram} when the socket has taken the answer's last byte.
 *
 * <p>How it learns that without a promise and a listener per answer (each answer is written with
 * the void promise): {@link #written} writes, right behind the answer, an end mark, an empty buffer
 * this connection owns and writes again for each answer. The channel's outbound buffer keeps
 * messages in order and releases each one when the socket has taken all of it, and an empty one as
 * soon as everything before it has gone; the mark's release is the signal. It carries no bytes: a
 * writev skips it, so it adds no system call, a file region before it is sent by sendfile as before,
 * and the answer's start times wait, in order, in a ring of this connection. The mark is a direct
 * buffer, as the native transports send without a copy (a heap buffer would be copied, and released,
 * at write time). A mark released on a connection no longer active was failed or discarded, not
 * sent: nothing is recorded.
 *
 * <p>One per connection, on its event loop only; the ring grows, by doubling, only when more answers
 * wait than ever before.
 */
public final class AnswerTimer {

  private static final ByteBuffer NOTHING = ByteBuffer.allocateDirect(0);

  private final Channel channel;
  private final EndMark mark;
  private long[] startedAt = new long[8];
  private LatencyHistogram[] into = new LatencyHistogram[8];
  /** Index of the oldest answer waiting, and how many wait. */
  private int oldest;
  private int waiting;

  public AnswerTimer(Channel channel) {
    this.channel = channel;
    this.mark = new EndMark(this);
  }

  /**
   * The answer this connection has just written in full (unflushed) started at {@code startNanos}
   * ({@link System#nanoTime}); its time goes into {@code histogram} once its last byte is written.
   */
  public void written(ChannelHandlerContext ctx, long startNanos, LatencyHistogram histogram) {
    waitFor(startNanos, histogram);
    ctx.write(mark, ctx.voidPromise());
  }

  /** Answers written and not yet sent in full. */
  public int waiting() {
    return waiting;
  }

  void waitFor(long startNanos, LatencyHistogram histogram) {
    if (waiting == startedAt.length) {
      grow();
    }
    int at = (oldest + waiting) & (startedAt.length - 1);
    startedAt[at] = startNanos;
    into[at] = histogram;
    waiting++;
  }

  /** The mark behind the oldest waiting answer was released: that answer is out, or failed. */
  void ended() {
    if (waiting == 0) {
      return; // released again by someone who read it (a test's embedded channel): not a mark of ours
    }
    LatencyHistogram histogram = into[oldest];
    long started = startedAt[oldest];
    into[oldest] = null;
    oldest = (oldest + 1) & (startedAt.length - 1);
    waiting--;
    if (channel.isActive()) {
      histogram.record(System.nanoTime() - started);
    }
  }

  /** The mark written behind each answer; for the transports, an empty direct buffer. */
  ByteBuf mark() {
    return mark;
  }

  private void grow() {
    int n = startedAt.length;
    long[] s = new long[n * 2];
    LatencyHistogram[] h = new LatencyHistogram[n * 2];
    for (int i = 0; i < n; i++) {
      s[i] = startedAt[(oldest + i) & (n - 1)];
      h[i] = into[(oldest + i) & (n - 1)];
    }
    startedAt = s;
    into = h;
    oldest = 0;
  }

  /**
   * An empty, never freed buffer whose release ends the oldest waiting answer. Its reference count
   * stays 1 whatever retains or releases it: it is written again and again, never owned by the
   * channel.
   */
  private static final class EndMark extends UnpooledDirectByteBuf {

    private final AnswerTimer timer;

    EndMark(AnswerTimer timer) {
      super(UnpooledByteBufAllocator.DEFAULT, NOTHING, 0);
      this.timer = timer;
    }

    @Override
    public ByteBuf retain() {
      return this;
    }

    @Override
    public ByteBuf retain(int increment) {
      return this;
    }

    @Override
    public boolean release() {
      timer.ended();
      return false;
    }

    @Override
    public boolean release(int decrement) {
      timer.ended();
      return false;
    }
  }
}
