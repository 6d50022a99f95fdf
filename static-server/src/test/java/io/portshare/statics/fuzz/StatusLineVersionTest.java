package io.portshare.statics.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import io.portshare.runtime.Runtimes;
import io.portshare.runtime.impl.ServiceRuntime;
import io.portshare.statics.StaticService;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An HTTP/1.1 server answers in HTTP/1.1 (RFC 9110 section 6.2), whatever version token the
 * request carried; it never echoes the client's token into its own status line. Every answer is
 * checked whole, and every refusal must close the connection by itself.
 */
class StatusLineVersionTest {

  @RegisterExtension
  static final Runtimes runtimes = new Runtimes();
  static ServiceRuntime rt;

  @BeforeAll
  static void start() {
    rt = runtimes.start(new StaticService(), "--port", "0", "--admin-port", "0", "--host", "127.0.0.1",
        "--instances", "1", "--header-timeout", "1s");
  }

  /** HeadGuard's whole answer, byte for byte: the status, no body, and the close announced. */
  private static String refusal(String status) {
    return "HTTP/1.1 " + status + "\r\ncontent-length: 0\r\nconnection: close\r\n\r\n";
  }

  @ParameterizedTest
  @CsvSource({"XTTP/1.1, 400 Bad Request", "HTTP/2.0, 505 HTTP Version Not Supported",
      "HTTP/1.2, 505 HTTP Version Not Supported", "HTTP/9.9, 505 HTTP Version Not Supported",
      "Evil<script>/1.1, 400 Bad Request", "http/1.1, 400 Bad Request", "HTTP/01.1, 400 Bad Request",
      "HTTP/1, 400 Bad Request", "HTTP/1.1 extra, 400 Bad Request"})
  void anotherVersionIsRefusedInHttp11AndClosed(String version, String status) throws IOException {
    // A second request follows in the same packet: it is not answered, the connection closes first.
    String answer = exchange("GET / " + version + "\r\nHost: t\r\n\r\nGET / HTTP/1.1\r\nHost: t\r\n\r\n");
    assertThat(answer).isEqualTo(refusal(status));
  }

  /** What RFC 9112 says a server must refuse with 400, refused so, in HTTP/1.1, and closed. */
  @ParameterizedTest
  @ValueSource(strings = {
      "GET / HTTP/1.1\r\n\r\n", // no Host (section 3.2)
      "GET / HTTP/1.1\r\nHost: t\r\nHost: u\r\n\r\n", // two Host lines (section 3.2)
      "GET / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: identity\r\n\r\n", // last coding not chunked (6.3)
      "GET / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked, gzip\r\n\r\n",
      "GET / HTTP/1.1\r\nHost: t\r\n: no-name\r\n\r\n", // a field name is a token (5.1)
      "GET / HTTP/1.1\r\nHost: t\r\nBad Name: x\r\n\r\n",
      "GET / HTTP/1.1\r\nHost: t\r\nContent-Length: -1\r\n\r\n",
      "GET / HTTP/1.1\r\nHost: t\r\nX-Nul: a\u0000b\r\n\r\n",
      "G ET / HTTP/1.1\r\nHost: t\r\n\r\n"})
  void malformedHeadsAre400InHttp11AndClosed(String request) throws IOException {
    assertThat(exchange(request)).isEqualTo(refusal("400 Bad Request"));
  }

  @Test
  void overlongHeadsAre414And431InHttp11AndClosed() throws IOException {
    assertThat(exchange("GET /" + "a".repeat(5000) + " HTTP/1.1\r\nHost: t\r\n\r\n"))
        .isEqualTo(refusal("414 Request-URI Too Long"));
    assertThat(exchange("GET / HTTP/1.1\r\nHost: t\r\nX-Big: " + "b".repeat(9000) + "\r\n\r\n"))
        .isEqualTo(refusal("431 Request Header Fields Too Large"));
  }

  @Test
  void anHttp10RequestNeedsNoHost() throws IOException {
    assertThat(exchange("GET / HTTP/1.0\r\n\r\n")).startsWith("HTTP/1.0 200 OK\r\n");
  }

  @Test
  void http11IsAnsweredInHttp11AndKeptOpen() throws IOException {
    try (Socket s = new Socket("127.0.0.1", rt.port())) {
      s.setSoTimeout(10_000);
      s.getOutputStream().write("GET / HTTP/1.1\r\nHost: t\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
      InputStream in = s.getInputStream();
      String head = new String(in.readNBytes(17), StandardCharsets.ISO_8859_1);
      assertThat(head).isEqualTo("HTTP/1.1 200 OK\r\n");
    }
  }

  /**
   * An HTTP/1.0 request is answered in HTTP/1.0 (RFC 9110 section 6.2 lets it: answering in
   * HTTP/1.1 is a SHOULD), and closes after it, as HTTP/1.0 without keep-alive asks.
   */
  @Test
  void http10IsAnsweredInHttp10AndClosed() throws IOException {
    String answer = exchange("GET / HTTP/1.0\r\n\r\n");
    assertThat(answer).startsWith("HTTP/1.0 200 OK\r\n").contains("portshare static-server");
  }

  private static String exchange(String request) throws IOException {
    try (Socket s = new Socket("127.0.0.1", rt.port())) {
      s.setSoTimeout(10_000);
      OutputStream out = s.getOutputStream();
      out.write(request.getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
      // No half-close: the server must close on its own (a read timeout fails the test).
      InputStream in = s.getInputStream();
      return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
    }
  }
}
