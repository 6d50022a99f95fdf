package io.portshare.statics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.portshare.kit.AdminPort;
import io.portshare.kit.HttpWire;
import io.portshare.kit.PrometheusText;
import io.portshare.runtime.LatencyHistogram;
import io.portshare.runtime.Runtimes;
import io.portshare.runtime.impl.ServiceRuntime;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every answer is timed into portshare_static_answer_seconds, seen from outside as Prometheus sees
 * it: answers from memory, by sendfile or copied from the file, refusals of names not there, on new
 * and on pipelined keep-alive connections; from the end of the request head (not the accept, nor
 * the head's first byte) to the last byte written, in seconds.
 */
class AnswerLatencyTest {

  static final String HISTOGRAM = "portshare_static_answer_seconds";
  /** How long the reader of a large answer holds it back. */
  private static final long HELD_MILLIS = 600;
  private static final int LARGE = 16 << 20;
  /** How long the client waits after connecting, and again inside its request head. */
  private static final long GAP_MILLIS = 600;

  @TempDir
  Path root;
  @RegisterExtension
  final Runtimes runtimes = new Runtimes();

  /**
   * By sendfile, copied from the file, on io_uring (splice; or its epoll fallback where the kernel
   * refuses it), and on the Vert.x engine.
   */
  @ParameterizedTest(name = "flags [{0}]")
  @ValueSource(strings = {"", "--no-sendfile", "--transport=io_uring", "--engine=vertx"})
  void eachAnswerCountsOnceInCumulativeBuckets(String flag) throws IOException {
    Files.writeString(root.resolve("small.txt"), "small\n");
    Files.write(root.resolve("big.bin"), new byte[256 * 1024]);
    ServiceRuntime rt = runtimes.start(new StaticService(), flag.isEmpty()
        ? TestServers.flags(root, "--warmup", "0", "--memory-max", "1KiB")
        : TestServers.flags(root, "--warmup", "0", "--memory-max", "1KiB", flag));
    int answers = 0;
    for (int i = 0; i < 10; i++, answers++) {
      assertThat(HttpWire.get(rt.port(), "/small.txt").status()).isEqualTo(200);
    }
    for (int i = 0; i < 5; i++, answers++) {
      assertThat(HttpWire.get(rt.port(), "/big.bin").body()).hasSize(256 * 1024);
    }
    for (int i = 0; i < 3; i++, answers++) {
      assertThat(HttpWire.get(rt.port(), "/not-there").status()).isEqualTo(404);
    }
    try (HttpWire c = new HttpWire(rt.port())) {
      c.send("GET /small.txt HTTP/1.1\r\nHost: t\r\n\r\n".repeat(6) + "GET /big.bin HTTP/1.1\r\nHost: t\r\n\r\n");
      for (int i = 0; i < 7; i++, answers++) {
        assertThat(c.read(false).status()).isEqualTo(200);
      }
    }
    int expected = answers;
    AdminPort admin = new AdminPort(rt.adminPort());

    // An answer is recorded once its last byte has been written, a moment after the client may read it.
    await().atMost(Duration.ofSeconds(10)).until(() -> admin.metrics().value(HISTOGRAM + "_count", "loop", "0")
        .orElse(0.0) == expected);
    PrometheusText.Histogram h = admin.metrics().histogram(HISTOGRAM, "service", "static", "loop", "0");
    assertThat(h.bounds()).hasSize(LatencyHistogram.BOUNDS_SECONDS.length + 1);
    assertThat(h.buckets()[h.buckets().length - 1]).isEqualTo(expected);
    assertThat(h.sum()).as("seconds, not nanoseconds").isPositive().isLessThan(expected * 5.0);
  }

  /**
   * An answer whose reader holds it back a known time: the client reads the first bytes of the
   * answer (the server has the request head, and its timer runs), then reads nothing for
   * {@link #HELD_MILLIS}. 16 MiB is far beyond what the socket buffers hold (the client's receive
   * buffer is set small), so the answer's last byte is written only after the client reads again:
   * the answer took at least {@link #HELD_MILLIS}, and Prometheus must show it in seconds, above the
   * bucket up to 0.5. An interval that ends when the answer is handed to the socket rather than at
   * its last byte written, or a sum in milliseconds, fails here; a loaded machine only makes the
   * answer longer, which the bounds allow.
   */
  @ParameterizedTest(name = "flags [{0}]")
  @ValueSource(strings = {"", "--no-sendfile", "--transport=io_uring", "--engine=vertx"})
  void anAnswerHeldBackByItsReaderIsTimedToItsLastByteInSeconds(String flag) throws Exception {
    Files.write(root.resolve("large.bin"), new byte[LARGE]);
    ServiceRuntime rt = runtimes.start(new StaticService(), flag.isEmpty()
        ? TestServers.flags(root, "--warmup", "0", "--memory-max", "1KiB")
        : TestServers.flags(root, "--warmup", "0", "--memory-max", "1KiB", flag));
    long read;
    try (Socket s = new Socket()) {
      s.setReceiveBufferSize(64 * 1024);
      s.setSoTimeout(30_000);
      s.connect(new InetSocketAddress("127.0.0.1", rt.port()), 10_000);
      s.getOutputStream().write("GET /large.bin HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n"
          .getBytes(StandardCharsets.US_ASCII));
      InputStream in = s.getInputStream();
      assertThat(in.read()).as("the answer's first byte").isEqualTo('H');
      Thread.sleep(HELD_MILLIS);
      read = 1 + in.transferTo(OutputStream.nullOutputStream());
    }
    assertThat(read).as("bytes of the answer").isGreaterThan(LARGE);
    AdminPort admin = new AdminPort(rt.adminPort());

    await().atMost(Duration.ofSeconds(10)).until(() -> admin.metrics().value(HISTOGRAM + "_count", "loop", "0")
        .orElse(0.0) == 1);
    PrometheusText.Histogram h = admin.metrics().histogram(HISTOGRAM, "service", "static", "loop", "0");
    double held = HELD_MILLIS / 1000.0;
    // Its reader held it back this long at least; in milliseconds the sum would be a thousand times it.
    assertThat(h.sum()).as("seconds, from the request head to the last byte written")
        .isGreaterThanOrEqualTo(held).isLessThan(held * 100);
    int upToHalf = Arrays.binarySearch(h.bounds(), 0.5);
    assertThat(upToHalf).as("the bound 0.5").isPositive();
    assertThat(h.buckets()[upToHalf]).as("answers up to 0.5 s").isZero();
    assertThat(h.buckets()[h.buckets().length - 1]).isEqualTo(1);
  }

  /**
   * The interval starts when the request's head is whole, as the metric's help says: the client
   * connects and waits {@link #GAP_MILLIS}, sends the first bytes of its head and waits as long
   * again, then ends the head and reads a small answer from memory. Neither wait may be in the time:
   * an interval started at the accept or at the head's first byte would hold at least one of them.
   */
  @ParameterizedTest(name = "flags [{0}]")
  @ValueSource(strings = {"", "--engine=vertx"})
  void theIntervalStartsAtTheEndOfTheRequestHead(String flag) throws Exception {
    Files.writeString(root.resolve("small.txt"), "small\n");
    ServiceRuntime rt = runtimes.start(new StaticService(), flag.isEmpty()
        ? TestServers.flags(root, "--warmup", "0")
        : TestServers.flags(root, "--warmup", "0", flag));
    AdminPort admin = new AdminPort(rt.adminPort());
    assertThat(HttpWire.get(rt.port(), "/small.txt").status()).as("looked up and cached").isEqualTo(200);
    await().atMost(Duration.ofSeconds(10)).until(() -> admin.metrics().value(HISTOGRAM + "_count", "loop", "0")
        .orElse(0.0) == 1);
    double before = admin.metrics().histogram(HISTOGRAM, "service", "static", "loop", "0").sum();
    try (Socket s = new Socket()) {
      s.setSoTimeout(30_000);
      s.connect(new InetSocketAddress("127.0.0.1", rt.port()), 10_000);
      Thread.sleep(GAP_MILLIS);
      OutputStream out = s.getOutputStream();
      out.write("GET /small.txt HTTP/1.1\r\nHo".getBytes(StandardCharsets.US_ASCII));
      out.flush();
      Thread.sleep(GAP_MILLIS);
      out.write("st: t\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      String answer = new String(s.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
      assertThat(answer).startsWith("HTTP/1.1 200").endsWith("small\n");
    }

    await().atMost(Duration.ofSeconds(10)).until(() -> admin.metrics().value(HISTOGRAM + "_count", "loop", "0")
        .orElse(0.0) == 2);
    PrometheusText.Histogram h = admin.metrics().histogram(HISTOGRAM, "service", "static", "loop", "0");
    assertThat(h.sum() - before).as("seconds of an answer from memory, the waits before its head's end left out")
        .isGreaterThan(0).isLessThan(GAP_MILLIS / 1000.0 / 2);
  }
}
