package io.portshare.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.portshare.kit.RpcWire;
import io.portshare.rpc.client.Frames;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Frames out of a byte stream, however the stream is cut, in place where they are whole. */
class FrameDecoderTest {

  private final FrameDecoder decoder = new FrameDecoder(1024);
  /** Each frame handed over: its payload, and whether it was handed over in the very buffer read. */
  private final List<byte[]> payloads = new ArrayList<>();
  private final List<Boolean> inPlace = new ArrayList<>();
  private ByteBuf reading;

  @AfterEach
  void release() {
    decoder.release();
  }

  private boolean feed(byte[] bytes) {
    reading = Unpooled.wrappedBuffer(bytes);
    try {
      return decoder.decode(reading, (buf, index, length) -> {
        assertThat(buf.getInt(index)).isEqualTo(length);
        payloads.add(ByteBufUtil.getBytes(buf, index + Frames.HEADER_LENGTH, length));
        inPlace.add(buf == reading);
      });
    } finally {
      reading.release();
    }
  }

  private static byte[] concat(byte[]... parts) {
    return ByteBufUtil.getBytes(Unpooled.wrappedBuffer(parts));
  }

  @Test
  void wholeFramesInOneReadAreHandedOverInPlaceInOrder() {
    byte[] a = RpcWire.frame(3, 1);
    byte[] b = RpcWire.frame(0, 2);
    byte[] c = RpcWire.frame(100, 3);

    assertThat(feed(concat(a, b, c))).isTrue();

    assertThat(payloads).containsExactly(slice(a), slice(b), slice(c));
    assertThat(inPlace).containsOnly(true);
    assertThat(decoder.atFrameBoundary()).isTrue();
  }

  @Test
  void aFrameCutAnywhereIsJoinedAcrossReads() {
    byte[] whole = concat(RpcWire.frame(50, 4), RpcWire.frame(7, 5));
    for (int cut = 1; cut < whole.length; cut++) {
      payloads.clear();
      inPlace.clear();
      byte[] first = new byte[cut];
      byte[] rest = new byte[whole.length - cut];
      System.arraycopy(whole, 0, first, 0, cut);
      System.arraycopy(whole, cut, rest, 0, rest.length);

      assertThat(feed(first)).isTrue();
      assertThat(decoder.atFrameBoundary()).as("cut at %d", cut).isEqualTo(cut == 54);
      assertThat(feed(rest)).isTrue();

      assertThat(payloads).as("cut at %d", cut).containsExactly(slice(RpcWire.frame(50, 4)), slice(RpcWire.frame(7, 5)));
      assertThat(decoder.atFrameBoundary()).isTrue();
    }
  }

  @Test
  void oneByteAtATimeStillGivesEveryFrame() {
    byte[] whole = concat(RpcWire.frame(9, 6), RpcWire.frame(1, 7));
    for (byte b : whole) {
      assertThat(feed(new byte[] {b})).isTrue();
    }
    assertThat(payloads).containsExactly(slice(RpcWire.frame(9, 6)), slice(RpcWire.frame(1, 7)));
    assertThat(inPlace).containsOnly(false);
  }

  @Test
  void aLengthAboveTheMaximumStopsTheStreamAfterTheFramesBeforeIt() {
    byte[] good = RpcWire.frame(10, 8);
    byte[] bad = Unpooled.buffer().writeInt(1025).writeBytes(new byte[20]).array();

    assertThat(feed(concat(good, bad))).isFalse();

    assertThat(payloads).containsExactly(slice(good));
  }

  @Test
  void aLengthAboveTheMaximumIsSeenEvenWhenItsHeaderArrivesInPieces() {
    assertThat(feed(new byte[] {0, 0})).isTrue();
    assertThat(feed(new byte[] {0x10, 0, 1, 2})).isFalse();
    assertThat(payloads).isEmpty();
  }

  @Test
  void aLengthAboveTwoGigabytesIsRefusedNotOverflowed() {
    assertThat(new FrameDecoder(Integer.MAX_VALUE - Frames.HEADER_LENGTH)
        .decode(Unpooled.wrappedBuffer(new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff}),
            (buf, index, length) -> payloads.add(new byte[0]))).isFalse();
    assertThatThrownBy(() -> new FrameDecoder(-1)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void releaseFreesAHeldPartialFrame() {
    assertThat(feed(new byte[] {0, 0, 0, 5, 1, 2})).isTrue();
    assertThat(decoder.atFrameBoundary()).isFalse();

    decoder.release();

    assertThat(decoder.atFrameBoundary()).isTrue();
  }

  private static byte[] slice(byte[] frame) {
    byte[] payload = new byte[frame.length - Frames.HEADER_LENGTH];
    System.arraycopy(frame, Frames.HEADER_LENGTH, payload, 0, payload.length);
    return payload;
  }
}
