package io.portshare.kit;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * A blocking client of a server on 127.0.0.1, as tests that speak bytes to it open one: the connect
 * and every read bounded by one timeout, so a server that hangs fails the test instead of hanging it.
 */
public final class LoopbackSocket {

  private LoopbackSocket() {}

  public static Socket connect(int port, Duration timeout) throws IOException {
    int millis = Math.toIntExact(timeout.toMillis());
    Socket s = new Socket();
    s.setSoTimeout(millis);
    s.connect(new InetSocketAddress("127.0.0.1", port), millis);
    return s;
  }

  /** What arrives up to and with {@code end}, or up to the end of the stream if it ends first (ISO-8859-1). */
  public static String readUntil(InputStream in, String end) throws IOException {
    ByteArrayOutputStream got = new ByteArrayOutputStream();
    while (!got.toString(StandardCharsets.ISO_8859_1).endsWith(end)) {
      int b = in.read();
      if (b < 0) {
        break;
      }
      got.write(b);
    }
    return got.toString(StandardCharsets.ISO_8859_1);
  }
}
