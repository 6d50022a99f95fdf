package io.portshare.statics.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import io.portshare.runtime.ServiceRuntime;
import io.portshare.statics.StaticService;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An HTTP/1.1 server answers in HTTP/1.1 (RFC 9110 section 6.2), whatever version token the
 * request carried; it never echoes the client's token into its own status line.
 */
class StatusLineVersionTest {

  static ServiceRuntime rt;

  @BeforeAll
  static void start() {
    rt = ServiceRuntime.start(new StaticService(), "--port", "0", "--admin-port", "0", "--host", "127.0.0.1",
        "--instances", "1", "--header-timeout", "1s");
  }

  @AfterAll
  static void stop() {
    if (rt != null) {
      rt.stop(Duration.ofSeconds(1));
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"XTTP/1.1", "HTTP/2.0", "HTTP/1.2", "Evil<script>/1.1"})
  void unknownVersionIsAnsweredInHttp11OrNotAtAll(String version) throws IOException {
    String answer = exchange("GET / " + version + "\r\nHost: t\r\n\r\n");
    assertThat(answer).satisfiesAnyOf(
        a -> assertThat(a).isEmpty(),
        a -> assertThat(a).startsWith("HTTP/1.1 "));
  }

  @ParameterizedTest
  @ValueSource(strings = {"HTTP/2.0", "HTTP/1.2", "HTTP/9.9"})
  void anotherHttpVersionIsRefusedWith505AndClosed(String version) throws IOException {
    String answer = exchange("GET / " + version + "\r\nHost: t\r\n\r\nGET / HTTP/1.1\r\nHost: t\r\n\r\n");
    assertThat(answer).startsWith("HTTP/1.1 505 ").contains("connection: close");
    assertThat(answer.split("HTTP/1\\.1 ", -1)).as("the pipelined request after it is not answered").hasSize(2);
  }

  @Test
  void somethingThatIsNotHttpIsRefusedWith400() throws IOException {
    assertThat(exchange("GET / XTTP/1.1\r\nHost: t\r\n\r\n")).startsWith("HTTP/1.1 400 ");
  }

  @Test
  void knownVersionsAreAnsweredInHttp11() throws IOException {
    assertThat(exchange("GET / HTTP/1.0\r\n\r\n")).startsWith("HTTP/1.");
  }

  private static String exchange(String request) throws IOException {
    try (Socket s = new Socket("127.0.0.1", rt.port())) {
      s.setSoTimeout(10_000);
      OutputStream out = s.getOutputStream();
      out.write(request.getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
      s.shutdownOutput();
      InputStream in = s.getInputStream();
      return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
    }
  }
}
