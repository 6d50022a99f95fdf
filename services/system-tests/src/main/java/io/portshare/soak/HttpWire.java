package io.portshare.soak;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/** HTTP/1.1 keep-alive GETs over a plain blocking socket, checked as far as a soak needs. */
final class HttpWire implements AutoCloseable {

  private static final int MAX_HEAD = 16 * 1024;

  private final Socket socket;
  private final InputStream in;
  private final OutputStream out;
  private final byte[] request;

  HttpWire(InetAddress source, int port, String path) throws IOException {
    socket = new Socket();
    socket.setTcpNoDelay(true);
    socket.setSoTimeout(30_000);
    if (source != null) {
      socket.bind(new InetSocketAddress(source, 0));
    }
    socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 10_000);
    in = new BufferedInputStream(socket.getInputStream(), 8192);
    out = socket.getOutputStream();
    request = ("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
  }

  /** One GET on this connection: a 200 with its whole body, the connection left open. */
  void get() throws IOException {
    out.write(request);
    out.flush();
    String head = readHead();
    if (!head.startsWith("HTTP/1.1 200 ")) {
      throw new IOException("expected 200, got \"" + head.lines().findFirst().orElse("") + "\"");
    }
    long length = -1;
    for (String line : head.split("\r\n")) {
      String lower = line.toLowerCase(Locale.ROOT);
      if (lower.startsWith("content-length:")) {
        length = Long.parseLong(lower.substring(15).trim());
      } else if (lower.startsWith("connection:") && lower.contains("close")) {
        throw new IOException("the server closes a keep-alive connection");
      }
    }
    if (length < 0) {
      throw new IOException("answer without Content-Length");
    }
    in.skipNBytes(length);
  }

  private String readHead() throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream(512);
    int matched = 0;
    while (matched < 4) {
      int b = in.read();
      if (b < 0) {
        throw new IOException("connection closed before the answer's head ended");
      }
      head.write(b);
      matched = (b == (matched % 2 == 0 ? '\r' : '\n')) ? matched + 1 : (b == '\r' ? 1 : 0);
      if (head.size() > MAX_HEAD) {
        throw new IOException("answer head longer than " + MAX_HEAD + " bytes");
      }
    }
    return head.toString(StandardCharsets.ISO_8859_1);
  }

  @Override
  public void close() {
    try {
      socket.close();
    } catch (IOException e) {
      // Closing is all we wanted.
    }
  }
}
