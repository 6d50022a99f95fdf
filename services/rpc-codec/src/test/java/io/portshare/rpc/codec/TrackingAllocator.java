package io.portshare.rpc.codec;

import io.netty.buffer.AbstractByteBufAllocator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledDirectByteBuf;
import io.netty.buffer.UnpooledHeapByteBuf;
import java.util.ArrayList;
import java.util.List;

/** An unpooled allocator that keeps every buffer it made, for a test to see each released. */
final class TrackingAllocator extends AbstractByteBufAllocator {

  final List<ByteBuf> allocated = new ArrayList<>();

  TrackingAllocator(boolean direct) {
    super(direct);
  }

  @Override
  protected ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
    ByteBuf buf = new UnpooledHeapByteBuf(this, initialCapacity, maxCapacity);
    allocated.add(buf);
    return buf;
  }

  @Override
  protected ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
    ByteBuf buf = new UnpooledDirectByteBuf(this, initialCapacity, maxCapacity);
    allocated.add(buf);
    return buf;
  }

  @Override
  public boolean isDirectBufferPooled() {
    return false;
  }
}
