package io.portshare.rpc.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/**
 * Splits a byte stream into RPC frames. Complete frames are handed over in place, as an index into
 * the buffer that was read, so a server can echo a slice without copying; only a frame cut by the
 * end of a read is copied, into a buffer that grows as the rest of it arrives.
 *
 * <p>Not thread-safe: one decoder per connection, used on that connection's event loop.
 */
public final class FrameDecoder {

  /** Receives each complete frame; {@code buf} is only valid during the call. */
  @FunctionalInterface
  public interface FrameHandler {
    /**
     * @param buf the buffer holding the frame
     * @param frameIndex where the frame starts in {@code buf} (its length header)
     * @param payloadLength the payload bytes after the header
     */
    void onFrame(ByteBuf buf, int frameIndex, int payloadLength);
  }

  private final int maxPayload;
  /** Where a frame cut by the end of a read is kept; null: the read buffer's own allocator. */
  private final ByteBufAllocator partials;
  /** The frame cut by the end of the last read, header first; null at a frame boundary. */
  private ByteBuf partial;

  /**
   * @param maxPayload the largest payload accepted; a larger declared length is a protocol error
   */
  public FrameDecoder(int maxPayload) {
    this(maxPayload, null);
  }

  /**
   * As the other, keeping a frame cut by the end of a read in a buffer of {@code partials} (null: of
   * the read buffer's allocator): a caller that hands such a frame on past the call picks one whose
   * buffers need no release.
   */
  public FrameDecoder(int maxPayload, ByteBufAllocator partials) {
    this.maxPayload = RpcFrame.checkMaxPayload(maxPayload);
    this.partials = partials;
  }

  public int maxPayload() {
    return maxPayload;
  }

  /**
   * Consumes every readable byte of {@code in}, calling {@code handler} for each frame it completes.
   * Does not release {@code in}.
   *
   * @return false when a frame declares a length above the maximum: the stream cannot be trusted
   *     past that point and the caller must close it (frames before it were handed over)
   */
  public boolean decode(ByteBuf in, FrameHandler handler) {
    if (partial != null && !completePartial(in, handler)) {
      return false;
    }
    while (in.readableBytes() >= RpcFrame.HEADER_LENGTH) {
      int index = in.readerIndex();
      int frameLength = RpcFrame.frameLength(in.getInt(index), maxPayload);
      if (frameLength < 0) {
        return false;
      }
      if (in.readableBytes() < frameLength) {
        break;
      }
      in.readerIndex(index + frameLength);
      handler.onFrame(in, index, frameLength - RpcFrame.HEADER_LENGTH);
    }
    if (in.isReadable()) {
      keepPartial(in);
    }
    return true;
  }

  /** True when no frame is half received: stopping here answers everything that arrived. */
  public boolean atFrameBoundary() {
    return partial == null;
  }

  /** Frees the partial frame, if any; call when the connection closes. */
  public void release() {
    if (partial != null) {
      partial.release();
      partial = null;
    }
  }

  private boolean completePartial(ByteBuf in, FrameHandler handler) {
    if (partial.readableBytes() < RpcFrame.HEADER_LENGTH) {
      partial.writeBytes(in, Math.min(RpcFrame.HEADER_LENGTH - partial.readableBytes(), in.readableBytes()));
      if (partial.readableBytes() < RpcFrame.HEADER_LENGTH) {
        return true;
      }
    }
    int frameLength = RpcFrame.frameLength(partial.getInt(partial.readerIndex()), maxPayload);
    if (frameLength < 0) {
      return false;
    }
    int missing = frameLength - partial.readableBytes();
    partial.writeBytes(in, Math.min(missing, in.readableBytes()));
    if (partial.readableBytes() < frameLength) {
      return true;
    }
    ByteBuf frame = partial;
    partial = null;
    try {
      handler.onFrame(frame, frame.readerIndex(), frameLength - RpcFrame.HEADER_LENGTH);
    } finally {
      frame.release();
    }
    return true;
  }

  private void keepPartial(ByteBuf in) {
    ByteBufAllocator alloc = partials == null ? in.alloc() : partials;
    int readable = in.readableBytes();
    if (readable >= RpcFrame.HEADER_LENGTH) {
      // The length is known and checked; grow toward it as bytes come rather than trusting it up front.
      int frameLength = RpcFrame.HEADER_LENGTH + (int) in.getUnsignedInt(in.readerIndex());
      partial = alloc.buffer(Math.min(frameLength, Math.max(readable * 2, 256)), frameLength);
    } else {
      partial = alloc.buffer(256);
    }
    partial.writeBytes(in);
  }
}
