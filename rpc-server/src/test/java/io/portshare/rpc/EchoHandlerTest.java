package io.portshare.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.portshare.kit.RpcWire;
import io.portshare.runtime.DrainEvent;
import java.io.IOException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The echo of one connection, driven byte by byte through an EmbeddedChannel. */
class EchoHandlerTest {

  private final RpcMetrics metrics = new RpcMetrics(new SimpleMeterRegistry(), "0");
  private final EmbeddedChannel channel = new EmbeddedChannel(new EchoHandler(1024, metrics));

  @AfterEach
  void close() {
    channel.finishAndReleaseAll();
  }

  private static byte[] concat(byte[]... parts) {
    return ByteBufUtil.getBytes(Unpooled.wrappedBuffer(parts));
  }

  /** Everything written out so far, as one array. */
  private byte[] written() {
    ByteBuf all = Unpooled.buffer();
    for (ByteBuf b; (b = channel.readOutbound()) != null; ) {
      all.writeBytes(b);
      b.release();
    }
    byte[] bytes = ByteBufUtil.getBytes(all);
    all.release();
    return bytes;
  }

  @Test
  void framesNextToEachOtherInOneReadLeaveAsOneWrite() {
    byte[] read = concat(RpcWire.frame(64, 1), RpcWire.frame(0, 2), RpcWire.frame(1000, 3));

    channel.writeInbound(Unpooled.wrappedBuffer(read));

    ByteBuf answer = channel.readOutbound();
    assertThat(ByteBufUtil.getBytes(answer)).isEqualTo(read);
    answer.release();
    assertThat((Object) channel.readOutbound()).isNull();
    assertThat(metrics.transactions()).isEqualTo(3);
    assertThat(metrics.bytesReceived()).isEqualTo(read.length);
    assertThat(metrics.bytesSent()).isEqualTo(read.length);
  }

  @Test
  void aFrameSplitOverReadsIsAnsweredOnceWhole() {
    byte[] f = RpcWire.frame(200, 4);

    channel.writeInbound(Unpooled.wrappedBuffer(f, 0, 3));
    assertThat(written()).isEmpty();
    channel.writeInbound(Unpooled.wrappedBuffer(f, 3, 100));
    assertThat(written()).isEmpty();
    channel.writeInbound(Unpooled.wrappedBuffer(f, 103, f.length - 103));

    assertThat(written()).isEqualTo(f);
    assertThat(metrics.transactions()).isEqualTo(1);
  }

  @Test
  void anOversizedFrameGetsTheEarlierAnswersThenTheConnectionCloses() {
    byte[] good = RpcWire.frame(10, 5);
    byte[] bad = Unpooled.buffer().writeInt(1025).writeBytes(new byte[30]).array();

    channel.writeInbound(Unpooled.wrappedBuffer(concat(good, bad)));
    channel.runPendingTasks();

    assertThat(written()).isEqualTo(good);
    assertThat(channel.isOpen()).isFalse();
    assertThat(metrics.framesRejected()).isEqualTo(1);
    assertThat(metrics.transactions()).isEqualTo(1);
  }

  @Test
  void aResetIsCountedAndClosesOnlyThisConnection() {
    channel.pipeline().fireExceptionCaught(new IOException("Connection reset by peer"));

    assertThat(metrics.resets()).isEqualTo(1);
    assertThat(metrics.otherErrors()).isZero();
    assertThat(channel.isOpen()).isFalse();
  }

  @Test
  void aDrainClosesAtTheFirstQuietFrameBoundary() throws Exception {
    byte[] f = RpcWire.frame(20, 6);
    channel.writeInbound(Unpooled.wrappedBuffer(f, 0, 10));
    EchoHandler echo = channel.pipeline().get(EchoHandler.class);

    echo.startDrain();
    Thread.sleep(30);
    channel.runPendingTasks();
    assertThat(channel.isOpen()).as("half a frame received: the drain waits for the rest").isTrue();

    channel.writeInbound(Unpooled.wrappedBuffer(f, 10, f.length - 10));
    assertThat(written()).isEqualTo(f);
    for (int i = 0; i < 10 && channel.isOpen(); i++) {
      Thread.sleep(15);
      channel.runPendingTasks();
    }
    assertThat(channel.isOpen()).isFalse();
    assertThat(metrics.drainClosed()).isEqualTo(1);
  }

  @Test
  void theRuntimesDrainEventDrainsAnIdleConnection() throws Exception {
    channel.pipeline().fireUserEventTriggered(DrainEvent.INSTANCE);
    for (int i = 0; i < 10 && channel.isOpen(); i++) {
      Thread.sleep(15);
      channel.runPendingTasks();
    }
    assertThat(channel.isOpen()).as("closed after a quiet tick").isFalse();
    assertThat(metrics.drainClosed()).isEqualTo(1);
  }

  @Test
  void theIdleSweepClosesAConnectionOnlyAfterEnoughQuietSweepsInARow() {
    EchoHandler echo = channel.pipeline().get(EchoHandler.class);
    assertThat(echo.quietFor(3)).isFalse();
    assertThat(echo.quietFor(3)).isFalse();
    // A byte read between two sweeps starts the count again.
    channel.writeInbound(Unpooled.wrappedBuffer(new byte[] {0}));
    assertThat(echo.quietFor(3)).as("read since the last sweep").isFalse();
    assertThat(echo.quietFor(3)).isFalse();
    assertThat(echo.quietFor(3)).isFalse();
    assertThat(echo.quietFor(3)).as("three quiet sweeps in a row").isTrue();

    echo.closeIdle();

    assertThat(channel.isOpen()).isFalse();
    assertThat(metrics.idleClosed()).isEqualTo(1);
  }
}
