package io.portshare.statics.fuzz;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * Random and mutated HTTP/1.x requests: methods, request targets, versions, headers (ranges,
 * conditionals, lengths, chunked bodies, oversize values, broken syntax), pipelines of them, and
 * byte-level mutations of the lot. Built as ISO-8859-1 text so any byte can appear.
 */
final class HttpRequests {

  private HttpRequests() {}

  /**
   * One case; {@code control} marks an unmutated GET of hello.txt whose answer is known exactly;
   * {@code first} is the first request as generated, or null when its bytes were mutated or random.
   */
  record Case(String kind, byte[] bytes, boolean control, Request first) {}

  /** A request as generated: its parts, each header line with the line end it was given. */
  record Request(String method, String target, String version, List<String> headerLines, String body) {
    String text() {
      StringBuilder sb = new StringBuilder(method).append(' ').append(target).append(' ').append(version).append("\r\n");
      headerLines.forEach(sb::append);
      return sb.append("\r\n").append(body).toString();
    }
  }

  static final String HELLO = "hello, fuzz\n";

  private static final String[] METHODS = {"GET", "GET", "GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS",
      "TRACE", "CONNECT", "PATCH", "get", "G ET", "PRI", "", "\u0000GET", "GETGETGETGETGETGETGETGETGETGET"};
  private static final String[] TARGETS = {"/", "/hello.txt", "/sub/", "/sub", "/big.bin", "/missing",
      "/../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/%00", "/a%zz", "/%", "*", "http://x/hello.txt", "//",
      "/hello.txt?x=1&y=%ff", "/hello.txt#frag", "/\u00ff\u00fe", "/sub/../hello.txt", "/./hello.txt", "",
      "/hello.txt/", "/ space", "/\ttab", "/\\..\\x"};
  private static final String[] VERSIONS = {"HTTP/1.1", "HTTP/1.1", "HTTP/1.0", "HTTP/2.0", "HTTP/1.2",
      "http/1.1", "HTTP/1", "HTTP/11", "", "HTTP/1.1 extra", "XTTP/1.1"};
  private static final String[] HEADERS = {"Host: t", "Connection: keep-alive", "Connection: close",
      "Range: bytes=0-4", "Range: bytes=-5", "Range: bytes=5-", "Range: bytes=10-5", "Range: bytes=a-b",
      "Range: bytes=0-1,3-4", "Range: bytes=99999999999999999999-", "Range: items=0-1", "If-Range: \"x\"",
      "If-None-Match: *", "If-None-Match: \"abc\", W/\"def\"", "If-Modified-Since: Thu, 01 Jan 1970 00:00:00 GMT",
      "If-Modified-Since: yesterday", "Accept-Encoding: gzip;q=0", "Accept-Encoding: gzip;q=0.5, br",
      "Content-Length: 0", "Content-Length: 5", "Content-Length: -1", "Content-Length: abc",
      "Content-Length: 99999999999999999999", "Transfer-Encoding: chunked", "Transfer-Encoding: gzip, chunked",
      "Transfer-Encoding: identity", "Expect: 100-continue", "Upgrade: h2c", "Header-Without-Colon",
      ": empty-name", "Bad Name: x", " obs-fold-continuation", "X-Nul: a\u0000b", "X-Ctl: \u0001\u007f",
      "Host: a", "Host:", "Cookie: " + "c".repeat(100)};
  private static final String[] BODIES = {"", "hello", "5\r\nhello\r\n0\r\n\r\n", "zz\r\nhello\r\n0\r\n\r\n",
      "ffffffffffffffff\r\nx\r\n", "5;ext=1\r\nhello\r\n0\r\nTrailer: x\r\n\r\n", "0\r\n\r\n", "3\r\nab"};

  /**
   * The first request of {@code bytes} (mutated ones included) in the parts the oracle reads, when
   * its head stays inside what the generator writes and the oracle models: visible ASCII, spaces and
   * tabs; every line ended by CRLF, the head by an empty line; a request line of a token method and a
   * target the oracle knows, each followed by one space. Else null, and only the weaker checks apply.
   */
  static Request parse(byte[] bytes) {
    String text = new String(bytes, StandardCharsets.ISO_8859_1);
    int end = text.indexOf("\r\n\r\n");
    if (end < 0) {
      return null;
    }
    String head = text.substring(0, end + 2);
    for (int i = 0; i < head.length(); i++) {
      char ch = head.charAt(i);
      boolean lineEnd = ch == '\r' && i + 1 < head.length() && head.charAt(i + 1) == '\n'
          || ch == '\n' && i > 0 && head.charAt(i - 1) == '\r';
      if (!lineEnd && ch != '\t' && (ch < 0x20 || ch > 0x7e)) {
        return null;
      }
    }
    String[] lines = head.split("\r\n", -1);
    String[] parts = lines[0].split(" ", 3);
    if (parts.length != 3 || !parts[0].matches("[!#$%&'*+\\-.^_`|~0-9A-Za-z]+") || !HttpOracle.knows(parts[1])) {
      return null;
    }
    List<String> headerLines = new ArrayList<>();
    for (int i = 1; i < lines.length - 1; i++) {
      headerLines.add(lines[i] + "\r\n");
    }
    return new Request(parts[0], parts[1], parts[2], headerLines, "");
  }

  static Case generate(Random r) {
    if (r.nextInt(10) == 0) {
      String req = "GET /hello.txt HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n";
      return new Case("control", req.getBytes(StandardCharsets.ISO_8859_1), true, null);
    }
    StringBuilder sb = new StringBuilder();
    int requests = r.nextInt(4) == 0 ? 2 + r.nextInt(3) : 1;
    Request first = null;
    for (int i = 0; i < requests; i++) {
      Request req = request(r);
      first = i == 0 ? req : first;
      sb.append(req.text());
    }
    byte[] bytes = sb.toString().getBytes(StandardCharsets.ISO_8859_1);
    String kind = "requests";
    if (r.nextInt(3) == 0) {
      bytes = mutate(r, bytes);
      kind = "mutated";
      first = null;
    }
    if (r.nextInt(20) == 0) {
      bytes = new byte[r.nextInt(512)];
      r.nextBytes(bytes);
      kind = "random";
      first = null;
    }
    return new Case(kind, bytes, false, first);
  }

  private static Request request(Random r) {
    String target = pick(r, TARGETS);
    if (r.nextInt(25) == 0) {
      target = "/" + "a".repeat(3000 + r.nextInt(3000)); // around --max-uri 4KiB
    }
    String method = pick(r, METHODS);
    String version = pick(r, VERSIONS);
    List<String> lines = new ArrayList<>();
    int headers = r.nextInt(6);
    if (r.nextInt(4) != 0) {
      lines.add("Host: t\r\n");
    }
    for (int i = 0; i < headers; i++) {
      lines.add(pick(r, HEADERS) + (r.nextInt(15) == 0 ? "\n" : "\r\n"));
    }
    if (r.nextInt(30) == 0) {
      lines.add("X-Big: " + "b".repeat(6000 + r.nextInt(6000)) + "\r\n"); // around 8KiB heads
    }
    String body = r.nextInt(3) == 0 ? pick(r, BODIES) : "";
    return new Request(method, target, version, lines, body);
  }

  private static byte[] mutate(Random r, byte[] b) {
    switch (r.nextInt(4)) {
      case 0: // flip bits
        for (int i = 1 + r.nextInt(4); i > 0 && b.length > 0; i--) {
          b[r.nextInt(b.length)] ^= (byte) (1 << r.nextInt(8));
        }
        return b;
      case 1: // cut
        return Arrays.copyOf(b, r.nextInt(b.length + 1));
      case 2: { // insert random bytes
        int at = r.nextInt(b.length + 1);
        byte[] ins = new byte[1 + r.nextInt(16)];
        r.nextBytes(ins);
        byte[] c = new byte[b.length + ins.length];
        System.arraycopy(b, 0, c, 0, at);
        System.arraycopy(ins, 0, c, at, ins.length);
        System.arraycopy(b, at, c, at + ins.length, b.length - at);
        return c;
      }
      default: { // delete a run
        if (b.length == 0) {
          return b;
        }
        int at = r.nextInt(b.length);
        int n = Math.min(b.length - at, 1 + r.nextInt(8));
        byte[] c = new byte[b.length - n];
        System.arraycopy(b, 0, c, 0, at);
        System.arraycopy(b, at + n, c, at, b.length - at - n);
        return c;
      }
    }
  }

  private static String pick(Random r, String[] from) {
    return from[r.nextInt(from.length)];
  }
}
