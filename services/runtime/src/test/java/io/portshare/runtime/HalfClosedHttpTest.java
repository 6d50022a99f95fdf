package io.portshare.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.portshare.kit.LoopbackSocket;
import io.portshare.runtime.impl.ServiceRuntime;
import io.vertx.core.Future;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.ext.web.Router;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A client that writes its requests and then half-closes (shutdownOutput, as {@code nc -N} does)
 * gets every answer and then the server's close, as from nginx, from a Router whose answers come
 * after a timer; one that half-closes with nothing asked is closed at once. With
 * {@code --answer-half-closed=false}, Vert.x's stock path, the FIN closes the connection before the
 * answer: that test fails when a Vert.x upgrade keeps a half-closed connection open itself, and the
 * runtime's handler can go.
 */
class HalfClosedHttpTest {

  /** Only catches a hang: every read below ends with an end of stream long before. */
  private static final Duration HANG = Duration.ofSeconds(30);
  private static final Pattern STATUS = Pattern.compile("HTTP/1\\.1 200 OK\\r\\n");

  @RegisterExtension
  final Runtimes runtimes = new Runtimes();

  @Test
  void aRequestThenAHalfCloseIsAnsweredThenClosed() throws IOException {
    int port = start(true);
    String all = requestsThenHalfClose(port, "/a");
    assertThat(all).startsWith("HTTP/1.1 200 OK").endsWith("late /a\n");
  }

  /** Vert.x's graceful shutdown answers the request it answers and the one queued behind it. */
  @Test
  void twoPipelinedRequestsThenAHalfCloseAreBothAnsweredInOrderThenClosed() throws IOException {
    int port = start(true);
    String all = requestsThenHalfClose(port, "/a", "/b");
    assertThat(count(all)).as("answers in %s", all).isEqualTo(2);
    assertThat(all).contains("late /a\n").endsWith("late /b\n");
    assertThat(all.indexOf("late /a")).isLessThan(all.indexOf("late /b"));
  }

  /** Vert.x's default options: HTTP/1.x or HTTP/2 is chosen by the first bytes, after the connection is made. */
  @Test
  void onAServerThatMaySpeakHttp2ARequestThenAHalfCloseIsAnsweredThenClosed() throws IOException {
    int port = start(true, true);
    assertThat(requestsThenHalfClose(port, "/a")).startsWith("HTTP/1.1 200 OK").endsWith("late /a\n");
  }

  @Test
  void aHalfCloseWithNoRequestIsClosedAtOnce() throws IOException {
    closedAtOnce(start(true));
  }

  @Test
  void onAServerThatMaySpeakHttp2AHalfCloseWithNoRequestIsClosedAtOnce() throws IOException {
    closedAtOnce(start(true, true));
  }

  private static void closedAtOnce(int port) throws IOException {
    try (Socket s = LoopbackSocket.connect(port, HANG)) {
      s.shutdownOutput();
      // A bound far below the hang's: the close waits for nothing.
      s.setSoTimeout(Router50ms.DELAY_MILLIS * 20);
      assertThat(s.getInputStream().read()).as("the server closes").isEqualTo(-1);
    }
  }

  @Test
  void aKeptAliveClientIsAnsweredAndKeptOpen() throws IOException {
    int port = start(true);
    try (Socket s = LoopbackSocket.connect(port, HANG)) {
      send(s, "/a");
      send(s, "/b");
      s.setSoTimeout(Router50ms.DELAY_MILLIS * 20);
      ByteArrayOutputStream got = new ByteArrayOutputStream();
      byte[] buf = new byte[4096];
      while (!got.toString(StandardCharsets.ISO_8859_1).endsWith("late /b\n")) {
        int n = s.getInputStream().read(buf);
        assertThat(n).as("bytes, not a close, before both answers").isPositive();
        got.write(buf, 0, n);
      }
      assertThat(count(got.toString(StandardCharsets.ISO_8859_1))).isEqualTo(2);
      try {
        int more = s.getInputStream().read();
        assertThat(more).as("the connection of a client that did not half-close stays open").isNotEqualTo(-1);
      } catch (SocketTimeoutException stillOpen) {
        // nothing more, and no close: kept alive
      }
    }
  }

  @Test
  void onTheStockPathTheHalfCloseClosesTheConnectionBeforeTheLateAnswer() throws IOException {
    int port = start(false);
    assertThat(requestsThenHalfClose(port, "/a")).as("answer once the client half-closed").isEmpty();
  }

  private int start(boolean answerHalfClosed) {
    return start(answerHalfClosed, false);
  }

  private int start(boolean answerHalfClosed, boolean h2c) {
    ServiceRuntime runtime = runtimes.start(new Router50ms(h2c), "--port", "0", "--admin-port", "0", "--host",
        "127.0.0.1", "--instances", "1", "--warmup", "0s", "--answer-half-closed=" + answerHalfClosed);
    return runtime.port();
  }

  /** Writes a GET per path, half-closes, and reads all the server sends until it closes. */
  private static String requestsThenHalfClose(int port, String... paths) throws IOException {
    try (Socket s = LoopbackSocket.connect(port, HANG)) {
      for (String path : paths) {
        send(s, path);
      }
      s.shutdownOutput();
      ByteArrayOutputStream all = new ByteArrayOutputStream();
      s.getInputStream().transferTo(all);
      return all.toString(StandardCharsets.ISO_8859_1);
    }
  }

  private static void send(Socket s, String path) throws IOException {
    s.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: t\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
  }

  private static int count(String answers) {
    Matcher m = STATUS.matcher(answers);
    int n = 0;
    while (m.find()) {
      n++;
    }
    return n;
  }

  /** A Router verticle on the runtime's HttpServer options whose every answer comes after a timer. */
  static final class Router50ms extends TestService {
    static final int DELAY_MILLIS = 50;
    private final boolean h2c;

    Router50ms(boolean h2c) {
      super("router-50ms", "answers every GET after a timer");
      this.h2c = h2c;
    }

    @Override
    public ServiceVerticle newVerticle() {
      return new ServiceVerticle() {
        @Override
        public Future<?> start() {
          Router router = Router.router(vertx);
          router.get().handler(ctx -> vertx.setTimer(DELAY_MILLIS,
              t -> ctx.response().end("late " + ctx.request().path() + "\n")));
          HttpServerOptions options = service.httpServerOptions().setHttp2ClearTextEnabled(h2c);
          return service.listen(vertx.createHttpServer(options).requestHandler(router));
        }
      };
    }
  }
}
