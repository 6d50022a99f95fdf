package io.portshare.rpc.codec;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The decoder in a Netty pipeline, as a server's handler uses it: each whole frame goes on as a
 * retained slice of the buffer it arrived in, a frame cut across reads as a slice of the kept copy,
 * every buffer is released once the frames are, and a length above the maximum closes the channel
 * after the frames before it.
 */
class FrameSlicesTest {

  private static final HexFormat HEX = HexFormat.of();

  /** The smallest handler on the decoder: frames on as slices, the stream closed on a bad length. */
  private static final class FrameSlices extends ChannelInboundHandlerAdapter {
    private final FrameDecoder decoder;

    FrameSlices(int maxPayload) {
      decoder = new FrameDecoder(maxPayload);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      ByteBuf in = (ByteBuf) msg;
      try {
        if (!decoder.decode(in, (buf, index, length) ->
            ctx.fireChannelRead(buf.retainedSlice(index, RpcFrame.HEADER_LENGTH + length)))) {
          ctx.close();
        }
      } finally {
        in.release();
      }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      decoder.release();
      ctx.fireChannelInactive();
    }
  }

  /** Every buffer made for the reads and by the decoder for what it keeps across them. */
  private final TrackingAllocator alloc = new TrackingAllocator(true);
  private final List<ByteBuf> allocated = alloc.allocated;

  private static EmbeddedChannel channel(int maxPayload) {
    return new EmbeddedChannel(new FrameSlices(maxPayload));
  }

  private ByteBuf read(String hex) {
    byte[] bytes = HEX.parseHex(hex);
    return alloc.directBuffer(bytes.length).writeBytes(bytes);
  }

  private void assertAllReleased() {
    assertThat(allocated).isNotEmpty().allSatisfy(buf -> assertThat(buf.refCnt()).isZero());
  }

  private static List<String> frames(EmbeddedChannel channel) {
    List<String> frames = new ArrayList<>();
    ByteBuf frame;
    while ((frame = channel.readInbound()) != null) {
      frames.add(ByteBufUtil.hexDump(frame));
      frame.release();
    }
    return frames;
  }

  @Test
  void wholeAndCutFramesGoOnAsSlicesAndEveryBufferIsReleased() {
    EmbeddedChannel channel = channel(16);
    channel.writeInbound(read("00000001aa00000002bbcc000000"), read("03ddeeff00000000"));

    assertThat(frames(channel)).containsExactly("00000001aa", "00000002bbcc", "00000003ddeeff", "00000000");
    assertThat(allocated).as("two reads and the frame kept across them").hasSize(3);
    assertAllReleased();
    assertThat(channel.finish()).isFalse();
  }

  @Test
  void aLengthAboveTheMaximumClosesAfterTheFramesBeforeIt() {
    EmbeddedChannel channel = channel(4);
    channel.writeInbound(read("00000001aa"), read("00000004aabbccdd00000005aabbccddee"));

    assertThat(frames(channel)).containsExactly("00000001aa", "00000004aabbccdd");
    assertThat(channel.isOpen()).isFalse();
    assertAllReleased();
  }

  @Test
  void aFrameHalfReceivedAtCloseIsReleased() {
    EmbeddedChannel channel = channel(1024);
    channel.writeInbound(read("00000100aabb"));
    assertThat(frames(channel)).isEmpty();

    assertThat(allocated).hasSize(2);
    assertThat(allocated.get(1).refCnt()).as("the half frame, kept").isOne();

    channel.close();

    assertAllReleased();
  }
}
