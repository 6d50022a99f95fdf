package io.portshare.rpc.fuzz;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Random;

/**
 * Random and mutated RPC byte streams, and the reference answer to each: the echo of every whole
 * frame up to the first one whose declared length is above the maximum (where the server must
 * close) or up to a frame cut short by the end of the stream.
 */
final class RpcStreams {

  private RpcStreams() {}

  /** One case: the bytes to send, and what the server must answer. */
  record Case(String kind, byte[] bytes, byte[] expected, boolean rejected) {}

  static Case generate(Random r, int maxPayload) {
    int kind = r.nextInt(6);
    byte[] bytes;
    String name;
    switch (kind) {
      case 0:
        name = "random";
        bytes = randomBytes(r, r.nextInt(64));
        break;
      case 1:
        name = "frames";
        bytes = frames(r, maxPayload, 1 + r.nextInt(8));
        break;
      case 2:
        name = "frames+bitflips";
        bytes = frames(r, maxPayload, 1 + r.nextInt(8));
        for (int i = 1 + r.nextInt(3); i > 0 && bytes.length > 0; i--) {
          bytes[r.nextInt(bytes.length)] ^= (byte) (1 << r.nextInt(8));
        }
        break;
      case 3:
        name = "frames+cut";
        bytes = frames(r, maxPayload, 1 + r.nextInt(8));
        bytes = Arrays.copyOf(bytes, bytes.length == 0 ? 0 : r.nextInt(bytes.length + 1));
        break;
      case 4:
        name = "frames+garbage";
        bytes = concat(frames(r, maxPayload, r.nextInt(4)), randomBytes(r, 1 + r.nextInt(32)));
        break;
      default:
        name = "frames+edge-length";
        long[] edges = {maxPayload, maxPayload + 1L, 0x7fffffffL, 0x80000000L, 0xffffffffL, 0, 1};
        long len = edges[r.nextInt(edges.length)];
        ByteBuffer h = ByteBuffer.allocate(4).putInt((int) len);
        byte[] tail = randomBytes(r, (int) Math.min(len, 1 + r.nextInt(64)));
        bytes = concat(concat(frames(r, maxPayload, r.nextInt(3)), h.array()), tail);
        break;
    }
    return answer(name, bytes, maxPayload);
  }

  /** The reference decoder: what an echo server that follows the protocol answers. */
  static Case answer(String kind, byte[] bytes, int maxPayload) {
    ByteBuffer in = ByteBuffer.wrap(bytes);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    boolean rejected = false;
    while (in.remaining() >= 4) {
      long len = Integer.toUnsignedLong(in.getInt(in.position()));
      if (len > maxPayload) {
        rejected = true;
        break;
      }
      if (in.remaining() < 4 + len) {
        break;
      }
      out.write(bytes, in.position(), 4 + (int) len);
      in.position(in.position() + 4 + (int) len);
    }
    return new Case(kind, bytes, out.toByteArray(), rejected);
  }

  private static byte[] frames(Random r, int maxPayload, int count) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (int i = 0; i < count; i++) {
      int size;
      switch (r.nextInt(4)) {
        case 0: size = 0; break;
        case 1: size = 1 + r.nextInt(16); break;
        case 2: size = 64 + r.nextInt(1024); break;
        default: size = r.nextInt(maxPayload + 1); break;
      }
      out.writeBytes(ByteBuffer.allocate(4).putInt(size).array());
      out.writeBytes(randomBytes(r, size));
    }
    return out.toByteArray();
  }

  private static byte[] randomBytes(Random r, int n) {
    byte[] b = new byte[n];
    r.nextBytes(b);
    return b;
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] c = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, c, a.length, b.length);
    return c;
  }
}
