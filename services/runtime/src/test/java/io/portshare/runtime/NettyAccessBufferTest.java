package io.portshare.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.portshare.runtime.NettyAccess.BufferBytes;
import io.vertx.core.buffer.Buffer;
import org.junit.jupiter.api.Test;

/**
 * rpc-server's Vert.x engine decodes each read's Buffer as a ByteBuf ({@link BufferBytes#byteBuf})
 * and writes a frame completed across reads as a Buffer ({@link BufferBytes#buffer}).
 * {@link BufferBytes#VIEWS} does both without a copy, through Vert.x's internal BufferInternal: the
 * ByteBuf must stay a view of the same bytes whose indexes the decoder may move without touching the
 * Buffer, or the echo would copy every read (or write nothing back); a Vert.x upgrade that changes
 * either fails here. {@link BufferBytes#COPIES}, the stock path, must really copy, or
 * {@code --channel netty} would still rest on the view.
 */
class NettyAccessBufferTest {

  @Test
  void aBuffersViewIsItsBytesWithIndexesOfItsOwn() {
    Buffer read = Buffer.buffer(new byte[] {0, 0, 0, 1, 7});
    ByteBuf view = BufferBytes.VIEWS.byteBuf(read);

    read.setByte(4, (byte) 9);
    assertThat(view.getByte(4)).as("a change through the Buffer, seen in the view").isEqualTo((byte) 9);
    assertThat(view.readableBytes()).isEqualTo(read.length());

    view.readerIndex(view.writerIndex());
    assertThat(read.length()).as("the Buffer, after the decoder read the view to its end").isEqualTo(5);
    assertThat(BufferBytes.VIEWS.byteBuf(read).readableBytes()).isEqualTo(5);
  }

  @Test
  void aBufferOverAByteBufSharesItsBytesAndOutlivesTheCallersReference() {
    ByteBuf bytes = Unpooled.buffer(4).writeBytes(new byte[] {1, 2, 3, 4});
    Buffer wrapped = BufferBytes.VIEWS.buffer(bytes, 1, 2);

    bytes.setByte(1, 7);
    assertThat(wrapped.getByte(0)).as("a change through the ByteBuf, seen in the Buffer").isEqualTo((byte) 7);
    assertThat(wrapped.length()).isEqualTo(2);
    bytes.release();
    assertThat(wrapped.getBytes()).as("after the caller released its reference").containsExactly(7, 3);
  }

  @Test
  void theStockPathDecodesACopyNotTheBuffersMemory() {
    Buffer read = Buffer.buffer(new byte[] {0, 0, 0, 1, 7});
    ByteBuf copy = BufferBytes.COPIES.byteBuf(read);

    read.setByte(4, (byte) 9);
    assertThat(copy.getByte(4)).as("a change through the Buffer, not seen in the copy").isEqualTo((byte) 7);
    assertThat(copy.readableBytes()).isEqualTo(read.length());
    copy.readerIndex(copy.writerIndex());
    assertThat(read.length()).isEqualTo(5);
  }

  @Test
  void theStockPathWritesACopyThatOutlivesTheCallersReference() {
    ByteBuf bytes = Unpooled.buffer(4).writeBytes(new byte[] {1, 2, 3, 4});
    Buffer copy = BufferBytes.COPIES.buffer(bytes, 1, 2);

    bytes.setByte(1, 7);
    assertThat(copy.getBytes()).as("a change through the ByteBuf, not seen in the copy").containsExactly(2, 3);
    assertThat(bytes.release()).as("the caller's reference, the last one").isTrue();
    assertThat(copy.getBytes()).containsExactly(2, 3);
  }
}
