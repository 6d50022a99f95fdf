package io.portshare.rpc.client;

import io.vertx.core.buffer.Buffer;

/**
 * The RPC wire format: a 4-byte big-endian unsigned length N, then N payload bytes. The server
 * answers each frame with the same frame, in order; there is nothing else to the protocol.
 */
public final class Frames {

  public static final int HEADER_LENGTH = 4;

  /** The default largest payload a server accepts: 1 MiB. */
  public static final int DEFAULT_MAX_PAYLOAD = 1 << 20;

  private Frames() {}

  /** A whole frame (header and payload) for {@code payload}, ready to write as many times as wanted. */
  public static Buffer encode(Buffer payload) {
    return Buffer.buffer(HEADER_LENGTH + payload.length()).appendInt(payload.length()).appendBuffer(payload);
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
