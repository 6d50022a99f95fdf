package io.portshare.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.portshare.kit.LoopbackSocket;
import io.portshare.runtime.impl.ServiceRuntime;
import io.vertx.core.Future;
import io.vertx.core.http.HttpServerOptions;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The runtime's HTTP options leave WebSocket compression off, so Vert.x adds no WebSocket extension
 * handler to every connection's pipeline (about 330 bytes per connection, a request or not a
 * WebSocket one); a service that serves WebSockets and wants compression turns it back on with
 * Vert.x's own options, and then a client's offer of {@code permessage-deflate} (or of the per-frame
 * {@code x-webkit-deflate-frame}) is taken.
 */
class WebSocketCompressionTest {

  private static final int HANG_MILLIS = 60_000;
  private static final String PER_MESSAGE = "permessage-deflate";
  private static final String PER_FRAME = "x-webkit-deflate-frame";

  @RegisterExtension
  final Runtimes runtimes = new Runtimes();

  static Stream<Arguments> options() {
    return Stream.of(
        Arguments.of("the runtime's options", UnaryOperator.<HttpServerOptions>identity(), PER_MESSAGE, false),
        Arguments.of("the runtime's options", UnaryOperator.<HttpServerOptions>identity(), PER_FRAME, false),
        Arguments.of("per-message compression turned back on",
            (UnaryOperator<HttpServerOptions>) o -> o.setPerMessageWebSocketCompressionSupported(true), PER_MESSAGE, true),
        Arguments.of("per-frame compression turned back on",
            (UnaryOperator<HttpServerOptions>) o -> o.setPerFrameWebSocketCompressionSupported(true), PER_FRAME, true));
  }

  @ParameterizedTest(name = "{0}, {2} offered")
  @MethodSource("options")
  void anOfferOfCompressionIsTakenOnlyWhenTheServiceTurnsItOn(String what, UnaryOperator<HttpServerOptions> options,
      String extension, boolean taken) throws Exception {
    ServiceRuntime runtime = runtimes.start(new WebSocketService(options), "--port", "0", "--admin-port", "0",
        "--host", "127.0.0.1", "--instances", "1");
    try (Socket s = LoopbackSocket.connect(runtime.port(), Duration.ofMillis(HANG_MILLIS))) {
      s.getOutputStream().write(("GET /ws HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
          + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
          + "Sec-WebSocket-Extensions: " + extension + "\r\n\r\n")
          .getBytes(StandardCharsets.US_ASCII));
      String head = LoopbackSocket.readUntil(s.getInputStream(), "\r\n\r\n").toLowerCase();
      assertThat(head).as("the handshake's answer").startsWith("http/1.1 101");
      assertThat(head.contains("sec-websocket-extensions: " + extension)).as(extension + " taken, " + what)
          .isEqualTo(taken);
    }
  }

  /** Accepts every WebSocket on the options the runtime gives, as the test changes them. */
  static final class WebSocketService extends TestService {
    private final UnaryOperator<HttpServerOptions> options;

    WebSocketService(UnaryOperator<HttpServerOptions> options) {
      super("websocket", "accepts WebSockets");
      this.options = options;
    }

    @Override
    public ServiceVerticle newVerticle() {
      return new ServiceVerticle() {
        @Override
        public Future<?> start() {
          return service.listen(vertx.createHttpServer(options.apply(service.httpServerOptions()))
              .webSocketHandler(ws -> ws.handler(ws::write)));
        }
      };
    }
  }
}
