package io.portshare.bench.staticfiles;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/** One HTTP/1.1 GET with {@code Connection: close}, read to the end: the body's length in bytes. */
final class Download {

  private Download() {}

  static long fetch(String host, int port, String path) throws IOException {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(host, port), 5000);
      s.setSoTimeout(60_000);
      OutputStream out = s.getOutputStream();
      out.write(("GET /" + path + " HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n")
          .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = s.getInputStream();
      byte[] buf = new byte[256 * 1024];
      long total = 0;
      long headEnd = -1;
      int matched = 0; // bytes of "\r\n\r\n" seen in a row
      int n;
      while ((n = in.read(buf)) > 0) {
        if (headEnd < 0) {
          for (int i = 0; i < n && headEnd < 0; i++) {
            byte want = (byte) (matched % 2 == 0 ? '\r' : '\n');
            matched = buf[i] == want ? matched + 1 : (buf[i] == '\r' ? 1 : 0);
            if (matched == 4) {
              headEnd = total + i + 1;
            }
          }
        }
        total += n;
      }
      if (headEnd < 0) {
        throw new IOException("no complete answer for /" + path + " from " + host + ":" + port);
      }
      return total - headEnd;
    }
  }
}
