package io.portshare.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.portshare.kit.LogCapture;
import io.portshare.runtime.impl.ServiceRuntime;
import io.vertx.core.Future;
import io.vertx.core.http.HttpServerRequest;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A drain of a plain HTTP service (a Vert.x HttpServer with the runtime's options, as
 * deploy/new-service.sh writes one) closes idle keep-alive connections at once, as nginx does on
 * quit, and lets a request in flight finish: it does not sit out the drain timeout because a client
 * keeps a connection. Judged by the order of events, not by a clock: the idle connection closes
 * while the request in flight is still held back by the test (so the drain is not over), and the
 * stop ends once that answer went out, far inside a drain timeout longer than the test may run.
 */
class DrainIdleHttpTest {

  /** Longer than any test may take: a stop that ends has not waited for it. */
  private static final Duration DRAIN_TIMEOUT = Duration.ofMinutes(10);
  /** Only catches a hang. */
  private static final int HANG_SECONDS = 60;

  @RegisterExtension
  final Runtimes runtimes = new Runtimes();

  @Test
  void anIdleKeptAliveConnectionClosesAtOnceAndTheRequestInFlightIsAnswered() throws Exception {
    HeldAnswerService service = new HeldAnswerService();
    ServiceRuntime runtime = start(service);
    try (Socket served = connect(runtime); Socket slow = connect(runtime)) {
      send(served, "/");
      assertThat(readResponse(served.getInputStream())).startsWith("HTTP/1.1 200").endsWith("answered\n");
      closesTheIdleConnectionFirstAndAnswersTheHeldRequest(runtime, service, slow, served);
    }
  }

  /** A client that connected ahead of its first request (a pool warming up, a browser's preconnect). */
  @Test
  void aConnectionThatSentNothingYetClosesAtOnceAndTheRequestInFlightIsAnswered() throws Exception {
    HeldAnswerService service = new HeldAnswerService();
    ServiceRuntime runtime = start(service);
    try (Socket silent = connect(runtime); Socket slow = connect(runtime)) {
      closesTheIdleConnectionFirstAndAnswersTheHeldRequest(runtime, service, slow, silent);
    }
  }

  private ServiceRuntime start(HeldAnswerService service) {
    return runtimes.start(service, "--port", "0", "--admin-port", "0", "--host", "127.0.0.1", "--instances", "1");
  }

  private static void closesTheIdleConnectionFirstAndAnswersTheHeldRequest(ServiceRuntime runtime,
      HeldAnswerService service, Socket slow, Socket idle) throws Exception {
    send(slow, "/held");
    assertThat(service.arrived.await(HANG_SECONDS, TimeUnit.SECONDS)).as("the held request reached the service").isTrue();

    try (LogCapture log = LogCapture.attach()) {
      CompletableFuture<Void> stopped = CompletableFuture.runAsync(() -> runtime.stop(DRAIN_TIMEOUT));

      assertThat(idle.getInputStream().read()).as("the idle connection is closed").isEqualTo(-1);
      // The held request is unanswered until the test lets it go: the drain cannot have ended, so
      // the idle connection was closed at the drain's start, not at its end.
      assertThat(stopped).as("the stop, while a request is in flight").isNotDone();
      assertThat(slow.getInputStream().available()).as("bytes answered to the held request").isZero();

      service.release.complete(null);
      assertThat(readResponse(slow.getInputStream())).as("the request in flight")
          .startsWith("HTTP/1.1 200").endsWith("answered\n");
      stopped.get(HANG_SECONDS, TimeUnit.SECONDS);
      assertThat(log.warningsAndErrors()).as("warnings of the drain (a timeout would say so)").isEmpty();
    }
    assertThat(slow.getInputStream().read()).as("the answered connection is closed after its answer").isEqualTo(-1);
  }

  /** Answers at once, except {@code /held}: that one waits until the test completes {@code release}. */
  static final class HeldAnswerService extends TestService {
    final CountDownLatch arrived = new CountDownLatch(1);
    final CompletableFuture<Void> release = new CompletableFuture<>();

    HeldAnswerService() {
      super("held-answer", "answers every HTTP request, /held only when the test says");
    }

    @Override
    public ServiceVerticle newVerticle() {
      return new ServiceVerticle() {
        @Override
        public Future<?> start() {
          return service.listen(vertx.createHttpServer(service.httpServerOptions()).requestHandler(this::answer));
        }

        private void answer(HttpServerRequest req) {
          if (!req.path().equals("/held")) {
            req.response().end("answered\n");
            return;
          }
          arrived.countDown();
          release.thenRun(() -> context.runOnContext(v -> req.response().end("answered\n")));
        }
      };
    }
  }

  private static Socket connect(ServiceRuntime runtime) throws IOException {
    Socket s = new Socket();
    s.setSoTimeout(HANG_SECONDS * 1000);
    s.connect(new InetSocketAddress("127.0.0.1", runtime.port()), 10_000);
    return s;
  }

  private static void send(Socket s, String path) throws IOException {
    s.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: localhost\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
  }

  /** One response with a content-length body, read to its end (the connection stays open). */
  private static String readResponse(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    while (!head.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n")) {
      int b = in.read();
      if (b < 0) {
        return head.toString(StandardCharsets.US_ASCII) + "<closed>";
      }
      head.write(b);
    }
    String h = head.toString(StandardCharsets.US_ASCII);
    int length = h.lines().filter(l -> l.toLowerCase().startsWith("content-length:"))
        .mapToInt(l -> Integer.parseInt(l.substring(15).trim())).findFirst().orElse(0);
    byte[] body = in.readNBytes(length);
    return h + new String(body, StandardCharsets.UTF_8);
  }
}
