package io.portshare.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.portshare.examples.hello.HelloService;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A drain of a plain HTTP service (a Vert.x HttpServer with its defaults, as deploy/new-service.sh
 * writes one) closes idle keep-alive connections at once, as nginx does on quit, and lets a request
 * in flight finish: it does not sit out the whole drain timeout because a client keeps a connection.
 */
class DrainIdleHttpTest {

  private static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(15);
  /** Far under the drain timeout; the slow request below takes 1.5 s of it. */
  private static final long STOP_BOUND_MILLIS = 3_000;

  @RegisterExtension
  final Runtimes runtimes = new Runtimes();

  @Test
  void anIdleKeptAliveConnectionClosesAtOnceAndTheRequestInFlightIsAnswered() throws Exception {
    ServiceRuntime runtime = start();
    try (Socket served = connect(runtime); Socket slow = connect(runtime)) {
      send(served, "/");
      assertThat(readResponse(served.getInputStream())).startsWith("HTTP/1.1 200").endsWith("hello from loop 0\n");
      stopsSoonAnsweringTheSlowRequest(runtime, slow, served);
    }
  }

  /** A client that connected ahead of its first request (a pool warming up, a browser's preconnect). */
  @Test
  void aConnectionThatSentNothingYetClosesAtOnceAndTheRequestInFlightIsAnswered() throws Exception {
    ServiceRuntime runtime = start();
    try (Socket silent = connect(runtime); Socket slow = connect(runtime)) {
      stopsSoonAnsweringTheSlowRequest(runtime, slow, silent);
    }
  }

  private ServiceRuntime start() {
    return runtimes.start(new HelloService(), "--port", "0", "--admin-port", "0", "--host", "127.0.0.1",
        "--instances", "1");
  }

  private static void stopsSoonAnsweringTheSlowRequest(ServiceRuntime runtime, Socket slow, Socket idle)
      throws Exception {
    send(slow, "/?delay=1500");
    Thread.sleep(200);

    long t0 = System.nanoTime();
    CompletableFuture<Void> stopped = CompletableFuture.runAsync(() -> runtime.stop(DRAIN_TIMEOUT));

    assertThat(idle.getInputStream().read()).as("the idle connection is closed").isEqualTo(-1);
    long idleClosedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
    assertThat(readResponse(slow.getInputStream())).as("the request in flight")
        .startsWith("HTTP/1.1 200").endsWith("hello from loop 0\n");
    stopped.get(DRAIN_TIMEOUT.toSeconds() + 10, TimeUnit.SECONDS);
    long stopMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
    assertThat(idleClosedMillis).as("idle connection closed after (ms)").isLessThan(STOP_BOUND_MILLIS);
    assertThat(stopMillis).as("stop took (ms), drain timeout %s", DRAIN_TIMEOUT).isLessThan(STOP_BOUND_MILLIS);
    assertThat(slow.getInputStream().read()).as("the answered connection is closed after its answer").isEqualTo(-1);
  }

  private static Socket connect(ServiceRuntime runtime) throws IOException {
    Socket s = new Socket();
    s.setSoTimeout(30_000);
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
