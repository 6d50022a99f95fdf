package io.portshare.statics;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * HTTP/1.1 over a plain socket, byte for byte as written: what hostile-input tests need, since a
 * real client library would normalise the very paths under test.
 */
final class RawHttp implements AutoCloseable {

  record Response(int status, Map<String, String> headers, byte[] body) {
    String header(String name) {
      return headers.get(name.toLowerCase(Locale.ROOT));
    }

    String text() {
      return new String(body, StandardCharsets.UTF_8);
    }
  }

  private final Socket socket;
  private final InputStream in;
  private final OutputStream out;

  RawHttp(int port) throws IOException {
    socket = new Socket("127.0.0.1", port);
    socket.setSoTimeout(20_000);
    in = socket.getInputStream();
    out = socket.getOutputStream();
  }

  /** One request with Connection: close on a new connection. */
  static Response get(int port, String target, String... headers) throws IOException {
    try (RawHttp c = new RawHttp(port)) {
      c.send("GET " + target + " HTTP/1.1\r\nHost: t\r\n" + String.join("", headers) + "Connection: close\r\n\r\n");
      return c.read(false);
    }
  }

  /** Sends the text as ISO-8859-1, so every char below 256 is the byte it names. */
  RawHttp send(String raw) throws IOException {
    out.write(raw.getBytes(StandardCharsets.ISO_8859_1));
    out.flush();
    return this;
  }

  Response read(boolean head) throws IOException {
    ByteArrayOutputStream h = new ByteArrayOutputStream();
    int state = 0;
    while (state < 4) {
      int b = in.read();
      if (b < 0) {
        throw new EOFException("connection closed before a whole response head; got: " + h);
      }
      h.write(b);
      state = (b == '\r' && (state == 0 || state == 2)) || (b == '\n' && (state == 1 || state == 3)) ? state + 1
          : b == '\r' ? 1 : 0;
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

  /** True when the server has closed the connection (end of stream or reset) before the timeout. */
  boolean closedByServer(int timeoutMillis) throws IOException {
    socket.setSoTimeout(timeoutMillis);
    try {
      return in.read() < 0;
    } catch (SocketTimeoutException e) {
      return false;
    } catch (SocketException e) {
      return true; // reset
    }
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
