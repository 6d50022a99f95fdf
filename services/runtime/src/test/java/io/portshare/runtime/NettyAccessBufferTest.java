package io.portshare.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.vertx.core.buffer.Buffer;
import org.junit.jupiter.api.Test;

/**
 * rpc-server's Vert.x engine decodes each read's Buffer through the ByteBuf under it
 * ({@link NettyAccess#byteBuf}, Vert.x's internal BufferInternal): that must stay a view of the same
 * bytes whose indexes the decoder may move without touching the Buffer, or the echo would copy every
 * read (or write nothing back); and {@link NettyAccess#buffer} must wrap, not copy. A Vert.x upgrade
 * that changes either fails here.
 */
class NettyAccessBufferTest {

  @Test
  void aBuffersByteBufIsAViewOfItsBytesWithIndexesOfItsOwn() {
    Buffer read = Buffer.buffer(new byte[] {0, 0, 0, 1, 7});
    ByteBuf view = NettyAccess.byteBuf(read);

    read.setByte(4, (byte) 9);
    assertThat(view.getByte(4)).as("a change through the Buffer, seen in the view").isEqualTo((byte) 9);
    assertThat(view.readableBytes()).isEqualTo(read.length());

    view.readerIndex(view.writerIndex());
    assertThat(read.length()).as("the Buffer, after the decoder read the view to its end").isEqualTo(5);
    assertThat(NettyAccess.byteBuf(read).readableBytes()).isEqualTo(5);
  }

  @Test
  void aBufferOverAByteBufSharesItsBytes() {
    ByteBuf bytes = Unpooled.buffer(3).writeBytes(new byte[] {1, 2, 3});
    Buffer wrapped = NettyAccess.buffer(bytes);

    bytes.setByte(1, 7);
    assertThat(wrapped.getByte(1)).as("a change through the ByteBuf, seen in the Buffer").isEqualTo((byte) 7);
    assertThat(wrapped.length()).isEqualTo(3);
  }
}
