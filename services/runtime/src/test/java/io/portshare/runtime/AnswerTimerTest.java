package io.portshare.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** An answer is timed when the outbound buffer lets go of the mark written behind it. */
class AnswerTimerTest {

  private final LatencyHistogram histogram = new LatencyHistogram();
  private final Answering answering = new Answering();
  private final EmbeddedChannel channel = new EmbeddedChannel(answering);

  /** Answers each inbound message with itself, then marks the answer's end. */
  private final class Answering extends ChannelInboundHandlerAdapter {
    AnswerTimer timer;

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
      timer = new AnswerTimer(ctx.channel());
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      ctx.write(msg, ctx.voidPromise());
      timer.written(ctx, System.nanoTime(), histogram);
    }
  }

  @AfterEach
  void close() {
    if (channel.isOpen()) {
      channel.finishAndReleaseAll();
    }
  }

  private static ByteBuf text(String s) {
    return Unpooled.copiedBuffer(s, StandardCharsets.US_ASCII);
  }

  @Test
  void anAnswerIsTimedOnceItsBytesAreTakenNotWhenWritten() {
    channel.pipeline().fireChannelRead(text("one"));
    channel.pipeline().fireChannelRead(text("two"));

    assertThat(histogram.count()).as("written, not flushed").isZero();
    assertThat(answering.timer.waiting()).isEqualTo(2);

    channel.flushOutbound();

    assertThat(histogram.count()).isEqualTo(2);
    assertThat(answering.timer.waiting()).isZero();
    ByteBuf one = channel.readOutbound();
    ByteBuf mark = channel.readOutbound();
    assertThat(one.toString(StandardCharsets.US_ASCII)).isEqualTo("one");
    assertThat(mark.readableBytes()).as("the mark carries no bytes").isZero();
    one.release();
    mark.release();
    assertThat(histogram.count()).as("a release after the channel's is no answer's end").isEqualTo(2);
  }

  @Test
  void anAnswerThatNeverLeftIsNotTimed() {
    channel.pipeline().fireChannelRead(text("lost"));
    // The answer's write fails with the close (which the embedded channel may report as it closes).
    catchThrowable(channel::close);

    assertThat(channel.isOpen()).isFalse();

    assertThat(histogram.count()).isZero();
    assertThat(answering.timer.waiting()).isZero();
  }

  @Test
  void moreAnswersWaitingThanTheRingHeldKeepTheirOrder() {
    AnswerTimer timer = answering.timer;
    LatencyHistogram slow = new LatencyHistogram();
    for (int i = 0; i < 20; i++) {
      timer.waitFor(i < 10 ? System.nanoTime() - 10_000_000_000L : System.nanoTime(), i < 10 ? slow : histogram);
    }
    for (int i = 0; i < 20; i++) {
      timer.mark().release();
    }

    assertThat(slow.count()).isEqualTo(10);
    assertThat(slow.bucketCounts()[LatencyHistogram.BOUNDS_SECONDS.length]).as("+Inf").isEqualTo(10);
    assertThat(histogram.count()).isEqualTo(10);
    assertThat(histogram.bucketCounts()[LatencyHistogram.BOUNDS_SECONDS.length]).isZero();
  }

  /** Waiting for answers and their marks' release allocate nothing once the ring is as big as it gets. */
  @Test
  void timingAnAnswerAllocatesNothing() {
    AnswerTimer timer = answering.timer;

    long allocated = ThreadAllocation.over(i -> {
      timer.waitFor(System.nanoTime(), histogram);
      timer.waitFor(System.nanoTime(), histogram);
      timer.mark().release();
      timer.mark().release();
    });

    assertThat(allocated).as(ThreadAllocation.BOUND).isLessThan(ThreadAllocation.ROUNDS);
    assertThat(histogram.count()).isEqualTo(6L * ThreadAllocation.ROUNDS);
  }
}
