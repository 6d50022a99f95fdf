package io.portshare.rpc.client;

import io.portshare.rpc.codec.FrameEncoder;
import io.vertx.core.buffer.Buffer;

/**
 * RPC frames as Vert.x Buffers, encoded by the codec ({@link FrameEncoder}; the format and its
 * limits are {@link io.portshare.rpc.codec.RpcFrame}'s).
 */
public final class Frames {

  private Frames() {}

  /** A whole frame (header and payload) for {@code payload}, ready to write as many times as wanted. */
  public static Buffer encode(Buffer payload) {
    return Buffer.buffer(FrameEncoder.frame(payload.getBytes()));
  }

  /** A frame whose payload is {@code size} bytes of a fixed, recognisable pattern. */
  public static Buffer encodePattern(int size) {
    return encode(pattern(size));
  }

  /** {@code size} bytes that differ from one position to the next, so a shifted echo shows. */
  public static Buffer pattern(int size) {
    byte[] b = new byte[size];
    for (int i = 0; i < size; i++) {
      b[i] = (byte) (i * 31 + 7);
    }
    return Buffer.buffer(b);
  }
}
