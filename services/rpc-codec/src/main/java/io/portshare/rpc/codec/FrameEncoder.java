package io.portshare.rpc.codec;

import io.netty.buffer.ByteBuf;

/** Writes RPC frames: the length prefix, or a whole frame around a payload. */
public final class FrameEncoder {

  private FrameEncoder() {}

  /** Writes the header of a frame of {@code payloadLength} bytes at {@code out}'s writer index. */
  public static ByteBuf writeHeader(ByteBuf out, int payloadLength) {
    if (payloadLength < 0) {
      throw new IllegalArgumentException("payload length " + payloadLength + " below 0");
    }
    return out.writeInt(payloadLength);
  }

  /** Writes the frame of {@code payload}'s readable bytes into {@code out}; {@code payload} is not consumed. */
  public static ByteBuf writeFrame(ByteBuf out, ByteBuf payload) {
    int length = payload.readableBytes();
    return writeHeader(out, length).writeBytes(payload, payload.readerIndex(), length);
  }

  /** The frame of {@code payload}: its length, then the payload. */
  public static byte[] frame(byte[] payload) {
    byte[] frame = new byte[RpcFrame.HEADER_LENGTH + payload.length];
    int n = payload.length;
    frame[0] = (byte) (n >>> 24);
    frame[1] = (byte) (n >>> 16);
    frame[2] = (byte) (n >>> 8);
    frame[3] = (byte) n;
    System.arraycopy(payload, 0, frame, RpcFrame.HEADER_LENGTH, n);
    return frame;
  }
}
