package io.portshare.rpc.netsocket;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.internal.buffer.BufferInternal;
import org.junit.jupiter.api.Test;

/**
 * The Vert.x engine decodes each read's Buffer through the ByteBuf under it
 * ({@link BufferInternal#getByteBuf}, Vert.x's integrator API): that must stay a view of the same
 * bytes whose indexes the decoder may move without touching the Buffer, or the echo would copy every
 * read (or write nothing back). A Vert.x upgrade that changes either fails here.
 */
class BufferViewTest {

  @Test
  void aBuffersByteBufIsAViewOfItsBytesWithIndexesOfItsOwn() {
    Buffer read = Buffer.buffer(new byte[] {0, 0, 0, 1, 7});
    ByteBuf view = ((BufferInternal) read).getByteBuf();

    read.setByte(4, (byte) 9);
    assertThat(view.getByte(4)).as("a change through the Buffer, seen in the view").isEqualTo((byte) 9);
    assertThat(view.readableBytes()).isEqualTo(read.length());

    view.readerIndex(view.writerIndex());
    assertThat(read.length()).as("the Buffer, after the decoder read the view to its end").isEqualTo(5);
    assertThat(((BufferInternal) read).getByteBuf().readableBytes()).isEqualTo(5);
  }
}
