package io.portshare.kit;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * HTTP/1.1 over a plain blocking socket, byte for byte as written: what hostile-input tests need,
 * since a real client library would normalise the very requests under test, and what the soak
 * holds open by the thousand.
 */
public final class HttpWire implements AutoCloseable {

  private static final int MAX_HEAD = 64 * 1024;

  /** One answer; header names lower-cased. */
  public record Response(int status, Map<String, String> headers, byte[] body) {
    public String header(String name) {
      return headers.get(name.toLowerCase(Locale.ROOT));
    }

    public String text() {
      return new String(body, StandardCharsets.UTF_8);
    }
  }

  private final Socket socket;
  private final InputStream in;
  private final OutputStream out;

  /** A connection to {@code port} on loopback. */
  public HttpWire(int port) throws IOException {
    this(null, port);
  }

  /** @param source the local address to connect from, or null */
  public HttpWire(InetAddress source, int port) throws IOException {
    socket = new Socket();
    socket.setTcpNoDelay(true);
    socket.setSoTimeout(30_000);
    if (source != null) {
      socket.bind(new InetSocketAddress(source, 0));
    }
    socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 10_000);
    in = new BufferedInputStream(socket.getInputStream(), 8192);
    out = socket.getOutputStream();
  }

  /** One request with Connection: close on a new connection. */
  public static Response get(int port, String target, String... headers) throws IOException {
    try (HttpWire c = new HttpWire(port)) {
      c.send("GET " + target + " HTTP/1.1\r\nHost: t\r\n" + String.join("", headers) + "Connection: close\r\n\r\n");
      return c.read(false);
    }
  }

  /** Sends the text as ISO-8859-1, so every char below 256 is the byte it names. */
  public HttpWire send(String raw) throws IOException {
    out.write(raw.getBytes(StandardCharsets.ISO_8859_1));
    out.flush();
    return this;
  }

  /** Reads one answer: its head, then a body of Content-Length bytes (none for HEAD or 304). */
  public Response read(boolean head) throws IOException {
    ByteArrayOutputStream h = new ByteArrayOutputStream(512);
    int state = 0;
    while (state < 4) {
      int b = in.read();
      if (b < 0) {
        throw new EOFException("connection closed before a whole response head; got: " + h);
      }
      h.write(b);
      state = (b == '\r' && (state == 0 || state == 2)) || (b == '\n' && (state == 1 || state == 3)) ? state + 1
          : b == '\r' ? 1 : 0;
      if (h.size() > MAX_HEAD) {
        throw new IOException("response head longer than " + MAX_HEAD + " bytes");
      }
    }
    String[] lines = h.toString(StandardCharsets.ISO_8859_1).split("\r\n");
    int status = Integer.parseInt(lines[0].split(" ")[1]);
    Map<String, String> headers = new LinkedHashMap<>();
    for (int i = 1; i < lines.length; i++) {
      int colon = lines[i].indexOf(':');
      headers.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).trim());
    }
    byte[] body = new byte[0];
    String length = headers.get("content-length");
    if (!head && status != 304 && length != null) {
      body = in.readNBytes(Integer.parseInt(length));
    }
    return new Response(status, headers, body);
  }

  /**
   * True when the server has closed the connection, in order (end of stream), before the timeout;
   * false when it is still open then. A reset is no close: it throws, so that a test of a graceful
   * close fails on a reset, which would lose an answer in flight.
   */
  public boolean closedByServer(int timeoutMillis) throws IOException {
    socket.setSoTimeout(timeoutMillis);
    try {
      return in.read() < 0;
    } catch (SocketTimeoutException e) {
      return false;
    } catch (SocketException e) {
      throw new SocketException("the server reset the connection instead of closing it: " + e.getMessage());
    }
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
