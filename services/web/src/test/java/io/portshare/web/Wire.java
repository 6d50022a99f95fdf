package io.portshare.web;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * One HTTP/1.1 exchange on a socket of its own, the target sent byte for byte as given (no client
 * normalizes it), the answer read to the close.
 */
final class Wire {

  record Answer(int status, Map<String, String> headers, byte[] body) {
    String header(String name) {
      return headers.get(name.toLowerCase(Locale.ROOT));
    }

    String text() {
      return new String(body, StandardCharsets.UTF_8);
    }
  }

  private Wire() {}

  /** {@code headers} are "Name: value" lines. */
  static Answer exchange(int port, String method, String target, String... headers) throws IOException {
    StringBuilder req = new StringBuilder(method + " " + target + " HTTP/1.1\r\nHost: t\r\nConnection: close\r\n");
    for (String h : headers) {
      req.append(h).append("\r\n");
    }
    req.append("\r\n");
    try (Socket s = new Socket("127.0.0.1", port)) {
      s.setSoTimeout(10_000);
      OutputStream out = s.getOutputStream();
      out.write(req.toString().getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
      InputStream in = s.getInputStream();
      ByteArrayOutputStream all = new ByteArrayOutputStream();
      in.transferTo(all);
      byte[] bytes = all.toByteArray();
      int end = indexOf(bytes, "\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
      String head = new String(bytes, 0, end, StandardCharsets.ISO_8859_1);
      String[] lines = head.split("\r\n");
      int status = Integer.parseInt(lines[0].split(" ")[1]);
      Map<String, String> fields = new LinkedHashMap<>();
      for (int i = 1; i < lines.length; i++) {
        int colon = lines[i].indexOf(':');
        fields.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).trim());
      }
      byte[] body = java.util.Arrays.copyOfRange(bytes, end + 4, bytes.length);
      return new Answer(status, fields, body);
    }
  }

  static Answer get(int port, String target, String... headers) throws IOException {
    return exchange(port, "GET", target, headers);
  }

  /** Where {@code b} first stands in {@code a}: the end of an answer's head, found in raw bytes. */
  static int indexOf(byte[] a, byte[] b) {
    outer:
    for (int i = 0; i + b.length <= a.length; i++) {
      for (int j = 0; j < b.length; j++) {
        if (a[i + j] != b[j]) {
          continue outer;
        }
      }
      return i;
    }
    throw new IllegalStateException("no end of head in " + a.length + " bytes");
  }
}
