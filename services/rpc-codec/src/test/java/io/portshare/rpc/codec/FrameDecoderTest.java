package io.portshare.rpc.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Frames out of a byte stream, however it is cut, in place where they are whole. A stream is given
 * as the hex of each read, apart by spaces; what comes out is the frames handed over, in order, and
 * how many of them were handed over in the very buffer read.
 */
class FrameDecoderTest {

  private static final HexFormat HEX = HexFormat.of();

  private FrameDecoder decoder;

  @AfterEach
  void release() {
    if (decoder != null) {
      decoder.release();
    }
  }

  /** What feeding some reads to one decoder gave. */
  private record Fed(String frames, int count, int inPlace, boolean accepted, boolean atFrameBoundary) {}

  private Fed feed(int maxPayload, List<byte[]> reads) {
    decoder = new FrameDecoder(maxPayload);
    StringBuilder frames = new StringBuilder();
    int[] count = {0, 0};
    boolean accepted = true;
    for (byte[] read : reads) {
      ByteBuf in = Unpooled.wrappedBuffer(read);
      try {
        accepted = decoder.decode(in, (buf, index, length) -> {
          assertThat(buf.getUnsignedInt(index)).isEqualTo(length);
          frames.append(ByteBufUtil.hexDump(buf, index, RpcFrame.HEADER_LENGTH + length));
          count[0]++;
          count[1] += buf == in ? 1 : 0;
        });
        if (accepted) {
          assertThat(in.isReadable()).as("bytes left unread").isFalse();
        }
      } finally {
        in.release();
      }
      if (!accepted) {
        break;
      }
    }
    return new Fed(frames.toString(), count[0], count[1], accepted, decoder.atFrameBoundary());
  }

  private static List<byte[]> reads(String hexReads) {
    List<byte[]> reads = new ArrayList<>();
    for (String read : hexReads.trim().split(" +")) {
      reads.add(HEX.parseHex(read));
    }
    return reads;
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      // case                              | max | reads                     | frames                   | count | in place | accepted | boundary
      "one frame in one read               | 16  | 00000002abcd              | 00000002abcd             | 1 | 1 | true  | true",
      "several frames in one read          | 16  | 00000001aa00000001bb00000000 | 00000001aa00000001bb00000000 | 3 | 3 | true  | true",
      "header split 1+3                    | 16  | 00 000001aa               | 00000001aa               | 1 | 0 | true  | true",
      "header split 3+1                    | 16  | 000000 01aa               | 00000001aa               | 1 | 0 | true  | true",
      "header split at every byte          | 16  | 00 00 00 01 aa            | 00000001aa               | 1 | 0 | true  | true",
      "payload across two reads            | 16  | 00000003aa bbcc           | 00000003aabbcc           | 1 | 0 | true  | true",
      "split frame then a whole one        | 16  | 00000003aa bbcc00000001dd | 00000003aabbcc00000001dd | 2 | 1 | true  | true",
      "whole frame then half of the next   | 16  | 00000001aa000000          | 00000001aa               | 1 | 1 | true  | false",
      "half a payload, no more             | 16  | 00000003aabb              | ''                       | 0 | 0 | true  | false",
      "zero-length payload                 | 16  | 00000000                  | 00000000                 | 1 | 1 | true  | true",
      "two zero-length frames              | 16  | 0000000000000000          | 0000000000000000         | 2 | 2 | true  | true",
      "zero-length frame split in header   | 16  | 0000 0000                 | 00000000                 | 1 | 0 | true  | true",
      "payload of exactly max              | 4   | 00000004aabbccdd          | 00000004aabbccdd         | 1 | 1 | true  | true",
      "max, header split                   | 4   | 000000 04aabbccdd         | 00000004aabbccdd         | 1 | 0 | true  | true",
      "zero max, empty payload             | 0   | 00000000                  | 00000000                 | 1 | 1 | true  | true",
      "max + 1                             | 4   | 00000005aabbccddee        | ''                       | 0 | 0 | false | true",
      "max + 1, header split               | 4   | 000000 05aabbccddee       | ''                       | 0 | 0 | false | false",
      "zero max, one byte                  | 0   | 00000001aa                | ''                       | 0 | 0 | false | true",
      "good frame, then oversized          | 4   | 00000001aa00000005        | 00000001aa               | 1 | 1 | false | true",
      "oversized header split across reads | 4   | 00000001aa0000 0005       | 00000001aa               | 1 | 1 | false | false",
      "largest declared length             | 16  | ffffffff                  | ''                       | 0 | 0 | false | true",
      "top bit set, 2^31                   | 16  | 80000000                  | ''                       | 0 | 0 | false | true",
      "top bit set, largest max            | 2147483643 | 80000000           | ''                       | 0 | 0 | false | true",
      "bytes after an oversized header     | 4   | 00000009 aabbcc           | ''                       | 0 | 0 | false | true",
  })
  void handsOverWholeFramesInOrder(String name, int max, String reads, String frames, int count, int inPlace,
      boolean accepted, boolean boundary) {
    assertThat(feed(max, reads(reads))).isEqualTo(new Fed(frames, count, inPlace, accepted, boundary));
  }

  @Test
  void aStreamSplitAtEveryByteGivesTheSameFrames() {
    String whole = frame(50) + frame(0) + frame(7);
    byte[] bytes = HEX.parseHex(whole);
    for (int cut = 1; cut < bytes.length; cut++) {
      String reads = whole.substring(0, 2 * cut) + " " + whole.substring(2 * cut);
      Fed fed = feed(64, reads(reads));
      assertThat(fed.frames()).as("cut at %d", cut).isEqualTo(whole);
      assertThat(fed.count()).as("cut at %d", cut).isEqualTo(3);
      assertThat(fed.atFrameBoundary()).isTrue();
    }
    StringBuilder oneByOne = new StringBuilder();
    for (int i = 0; i < whole.length(); i += 2) {
      oneByOne.append(whole, i, i + 2).append(' ');
    }
    assertThat(feed(64, reads(oneByOne.toString()))).isEqualTo(new Fed(whole, 3, 0, true, true));
  }

  @Test
  void aFrameTrickledInManyReadsIsWholeOnceItsLastByteArrives() {
    StringBuilder reads = new StringBuilder("00000300 ");
    for (int i = 0; i < 0x300; i++) {
      reads.append(String.format("%02x ", i & 0xff));
    }
    Fed fed = feed(0x300, reads(reads + "00000001ff"));
    assertThat(fed.count()).isEqualTo(2);
    assertThat(fed.frames()).hasSize(2 * (4 + 0x300 + 5)).endsWith("00000001ff");
  }

  @Test
  void aFrameOfExactlyTheLargestMaximumIsAcceptedUpToItsHeader() {
    Fed fed = feed(RpcFrame.LARGEST_MAX_PAYLOAD, reads("7ffffffb00"));
    assertThat(fed).isEqualTo(new Fed("", 0, 0, true, false));
  }

  @Test
  void aCutFrameIsKeptInTheGivenAllocatorsBuffer() {
    ByteBufAllocator heap = new UnpooledByteBufAllocator(false, true);
    decoder = new FrameDecoder(16, heap);
    List<ByteBuf> seen = new ArrayList<>();
    decoder.decode(Unpooled.wrappedBuffer(HEX.parseHex("00000002aa")), (buf, index, length) -> seen.add(buf));
    decoder.decode(Unpooled.wrappedBuffer(HEX.parseHex("bb")), (buf, index, length) -> seen.add(buf));
    assertThat(seen).singleElement().satisfies(buf -> {
      assertThat(buf.alloc()).isSameAs(heap);
      assertThat(buf.isDirect()).isFalse();
    });
  }

  @Test
  void releaseFreesAHeldPartialFrame() {
    TrackingAllocator watching = new TrackingAllocator(false);
    decoder = new FrameDecoder(16, watching);
    assertThat(decoder.decode(Unpooled.wrappedBuffer(HEX.parseHex("00000005aabb")), (b, i, l) -> { })).isTrue();
    assertThat(decoder.atFrameBoundary()).isFalse();

    decoder.release();

    assertThat(decoder.atFrameBoundary()).isTrue();
    assertThat(watching.allocated).singleElement().extracting(ByteBuf::refCnt).isEqualTo(0);
  }

  @Test
  void aMaximumOutsideWhatAFrameCanHoldIsRefusedInOneLine() {
    assertThatThrownBy(() -> new FrameDecoder(-1)).hasMessage("max payload -1 out of range: 0 to 2147483643");
    assertThatThrownBy(() -> new FrameDecoder(RpcFrame.LARGEST_MAX_PAYLOAD + 1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(new FrameDecoder(RpcFrame.LARGEST_MAX_PAYLOAD).maxPayload()).isEqualTo(RpcFrame.LARGEST_MAX_PAYLOAD);
  }

  /** The hex of a frame of {@code size} payload bytes. */
  private static String frame(int size) {
    byte[] payload = new byte[size];
    for (int i = 0; i < size; i++) {
      payload[i] = (byte) (i * 31 + 7);
    }
    return HEX.formatHex(FrameEncoder.frame(payload));
  }
}
