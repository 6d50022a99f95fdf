package io.portshare.statics;

import static org.assertj.core.api.Assertions.assertThat;

import io.portshare.kit.HttpWire;
import io.portshare.kit.RawExchange;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every {@link StaticServerTest} again with {@code --engine vertx}: the same answers from Vert.x's
 * HttpServer and a vertx-web Router. The tests below it are the differences static-server/README.md
 * lists under Engines, each checked so that a change on either side is seen.
 */
class StaticServerOnVertxTest extends StaticServerTest {

  @BeforeAll
  static void start() throws IOException {
    startWith("--engine", "vertx");
  }

  /** The own engine answers 505 in HTTP/1.1 (StatusLineVersionTest); Vert.x answers 501 in the version asked. */
  @Test
  void differenceAnotherHttpVersionIs501InThatVersion() throws IOException {
    for (String version : new String[] {"HTTP/2.0", "HTTP/1.2"}) {
      String answer = exchange("GET /hello.txt " + version + "\r\nHost: t\r\n\r\n");
      assertThat(answer).as(version).startsWith(version + " 501 ");
    }
  }

  /** RFC 9112 section 3.2 asks for 400, which the own engine answers; Vert.x serves the request. */
  @Test
  void differenceTwoHostFieldsAreServed() throws IOException {
    assertThat(exchange("GET /hello.txt HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n")).startsWith("HTTP/1.1 200 ");
  }

  /** Both close after an HTTP/1.0 answer without keep-alive; the own engine also says so in a header. */
  @Test
  void differenceAnHttp10AnswerThatClosesSaysNothing() throws IOException {
    try (HttpWire c = new HttpWire(port)) {
      c.send("GET /hello.txt HTTP/1.0\r\n\r\n");
      HttpWire.Response r = c.read(false);
      assertThat(r.text()).isEqualTo("hello\n");
      assertThat(r.header("connection")).isNull();
      assertThat(c.closedByServer(10_000)).isTrue();
    }
  }

  private static String exchange(String request) throws IOException {
    byte[] answer = RawExchange.exchange(port, request.getBytes(StandardCharsets.ISO_8859_1), new Random(1), 1 << 16,
        1 << 16);
    return new String(answer, StandardCharsets.ISO_8859_1);
  }
}
