package io.portshare.kit;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.util.Random;

/**
 * One raw exchange with a server, as a fuzzer needs it: the bytes go out in random pieces, the
 * write side is half-closed, and everything the server says until it closes is returned. A server
 * that closes or resets early (it refused the input) is normal: what it said before still counts.
 */
public final class RawExchange {

  private RawExchange() {}

  /** Pieces are 1..smallPiece or 1..bigPiece bytes, chosen at random per piece. */
  public static byte[] exchange(int port, byte[] bytes, Random r, int smallPiece, int bigPiece) throws IOException {
    try (Socket s = new Socket()) {
      s.setTcpNoDelay(true);
      s.setSoTimeout(15_000);
      s.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
      OutputStream out = s.getOutputStream();
      try {
        int at = 0;
        while (at < bytes.length) {
          int n = Math.min(bytes.length - at, 1 + r.nextInt(r.nextBoolean() ? smallPiece : bigPiece));
          out.write(bytes, at, n);
          out.flush();
          at += n;
        }
        s.shutdownOutput();
      } catch (SocketException e) {
        // The server closed while we were still writing: read what it answered before.
      }
      InputStream in = s.getInputStream();
      ByteArrayOutputStream got = new ByteArrayOutputStream();
      byte[] buf = new byte[16384];
      try {
        int n;
        while ((n = in.read(buf)) >= 0) {
          got.write(buf, 0, n);
        }
      } catch (SocketException e) {
        // A reset after a refused input: what arrived before it is checked.
      }
      return got.toByteArray();
    }
  }
}
