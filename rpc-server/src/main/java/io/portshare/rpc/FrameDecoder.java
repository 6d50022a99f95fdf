package io.portshare.rpc;

import io.netty.buffer.ByteBuf;
import io.portshare.rpc.client.Frames;

/**
 * Splits a byte stream into RPC frames (4-byte big-endian length, then that many payload bytes)
 * on the server's Netty pipeline. Complete frames are handed over in place, as an index into the
 * buffer that was read, so the server can echo a slice without copying; only a frame cut by
 * the end of a read is copied, into a buffer that grows as the rest of it arrives.
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
  /** The frame cut by the end of the last read, header first; null at a frame boundary. */
  private ByteBuf partial;

  /** @param maxPayload the largest payload accepted; a larger declared length is a protocol error */
  public FrameDecoder(int maxPayload) {
    if (maxPayload < 0 || maxPayload > Integer.MAX_VALUE - Frames.HEADER_LENGTH) {
      throw new IllegalArgumentException("max payload out of range: " + maxPayload);
    }
    this.maxPayload = maxPayload;
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
    while (in.readableBytes() >= Frames.HEADER_LENGTH) {
      int index = in.readerIndex();
      long length = in.getUnsignedInt(index);
      if (length > maxPayload) {
        return false;
      }
      int frameLength = Frames.HEADER_LENGTH + (int) length;
      if (in.readableBytes() < frameLength) {
        break;
      }
      in.readerIndex(index + frameLength);
      handler.onFrame(in, index, (int) length);
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
    if (partial.readableBytes() < Frames.HEADER_LENGTH) {
      partial.writeBytes(in, Math.min(Frames.HEADER_LENGTH - partial.readableBytes(), in.readableBytes()));
      if (partial.readableBytes() < Frames.HEADER_LENGTH) {
        return true;
      }
    }
    long length = partial.getUnsignedInt(partial.readerIndex());
    if (length > maxPayload) {
      return false;
    }
    int frameLength = Frames.HEADER_LENGTH + (int) length;
    int missing = frameLength - partial.readableBytes();
    partial.writeBytes(in, Math.min(missing, in.readableBytes()));
    if (partial.readableBytes() < frameLength) {
      return true;
    }
    ByteBuf frame = partial;
    partial = null;
    try {
      handler.onFrame(frame, frame.readerIndex(), (int) length);
    } finally {
      frame.release();
    }
    return true;
  }

  private void keepPartial(ByteBuf in) {
    int readable = in.readableBytes();
    int capacity;
    if (readable >= Frames.HEADER_LENGTH) {
      // The length is known and checked; grow toward it as bytes come rather than trusting it up front.
      int frameLength = Frames.HEADER_LENGTH + (int) in.getUnsignedInt(in.readerIndex());
      capacity = Math.min(frameLength, Math.max(readable * 2, 256));
      partial = in.alloc().buffer(capacity, frameLength);
    } else {
      partial = in.alloc().buffer(256);
    }
    partial.writeBytes(in);
  }
}
