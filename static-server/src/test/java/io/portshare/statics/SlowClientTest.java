package io.portshare.statics;

import static org.assertj.core.api.Assertions.assertThat;

import io.portshare.kit.HttpWire;
import io.portshare.runtime.Runtimes;
import io.portshare.runtime.impl.ServiceRuntime;
import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Slowloris: a head trickled byte by byte is cut by the header timeout; an idle keep-alive connection
 * is not, until the idle timeout; nor is a client that stopped reading its answer. Each close is
 * checked for its reason, by the counter the server keeps of it.
 */
class SlowClientTest {

  @TempDir
  static Path root;
  @RegisterExtension
  static final Runtimes runtimes = new Runtimes();
  @RegisterExtension
  final Runtimes ownRuntimes = new Runtimes();
  static ServiceRuntime rt;
  static int port;
  static String engine;

  @BeforeAll
  static void start(TestInfo test) throws IOException {
    // JUnit also runs a superclass's static @BeforeAll that a subclass's hides: a subclass starts
    // its own server on another engine, so this one starts only for this class.
    if (test.getTestClass().orElseThrow() == SlowClientTest.class) {
      startWith("own");
    }
  }

  /** The server under test on {@code engine} (own or vertx). */
  static void startWith(String engine) throws IOException {
    SlowClientTest.engine = engine;
    Files.writeString(root.resolve("hello.txt"), "hello\n");
    rt = runtimes.start(new StaticService(), TestServers.flags(root, "--header-timeout", "500ms", "--engine", engine));
    port = rt.port();
  }

  @Test
  void aHeadTrickledPastTheHeaderTimeout() throws Exception {
    trickleAHeadPastTheHeaderTimeout();
  }

  /** The own engine clocks the whole head: one trickled past --header-timeout is cut, and counted so. */
  void trickleAHeadPastTheHeaderTimeout() throws Exception {
    double before = StaticServerTest.metricOf(rt, "portshare_static_header_timeouts_total");
    boolean closed = false;
    try (HttpWire c = new HttpWire(port)) {
      c.send("GET /hello.txt HTTP/1.1\r\n");
      // Each line arrives well inside any idle timeout; only the head's total time can catch it.
      for (int i = 0; i < 100 && !closed; i++) {
        try {
          c.send("X-Slow-" + i + ": x\r\n");
        } catch (IOException e) {
          closed = true; // the server already closed: broken pipe or reset
          break;
        }
        closed = c.closedByServer(200);
      }
    }
    assertThat(closed).as("server closed the trickling connection").isTrue();
    assertThat(StaticServerTest.metricOf(rt, "portshare_static_header_timeouts_total") - before).isEqualTo(1);
  }

  @Test
  void anIdleKeepAliveConnectionOutlivesTheHeaderTimeout() throws Exception {
    try (HttpWire c = new HttpWire(port)) {
      c.send("GET /hello.txt HTTP/1.1\r\nHost: t\r\n\r\n");
      assertThat(c.read(false).text()).isEqualTo("hello\n");
      // Three header timeouts of silence: nothing is being sent, so nothing is late.
      assertThat(c.closedByServer(1500)).isFalse();
      c.send("GET /hello.txt HTTP/1.1\r\nHost: t\r\n\r\n");
      assertThat(c.read(false).text()).isEqualTo("hello\n");
    }
  }

  @Test
  void aQuietKeepAliveConnectionIsClosedByTheIdleTimeoutAndCountedSo() throws Exception {
    ServiceRuntime idle = ownRuntimes.start(new StaticService(), TestServers.flags(root, "--idle-timeout", "1s", "--engine", engine));
    try (HttpWire c = new HttpWire(idle.port())) {
      c.send("GET /hello.txt HTTP/1.1\r\nHost: t\r\n\r\n");
      assertThat(c.read(false).text()).isEqualTo("hello\n");
      long quietSince = System.nanoTime();
      assertThat(c.closedByServer(10_000)).as("closed after the idle timeout").isTrue();
      // Not before the timeout; the sweep runs every quarter of it, so soon after (a busy machine may delay it).
      assertThat(Duration.ofNanos(System.nanoTime() - quietSince)).isBetween(Duration.ofMillis(900),
          Duration.ofSeconds(5));
    }
    assertThat(StaticServerTest.metricOf(idle, "portshare_static_idle_timeouts_total")).isEqualTo(idleTimeoutsCounted());
    assertThat(StaticServerTest.metricOf(idle, "portshare_static_header_timeouts_total")).isZero();
  }

  /** What {@code portshare_static_idle_timeouts_total} counts of one connection closed for being idle. */
  long idleTimeoutsCounted() {
    return 1;
  }

  @Test
  void aClientThatStopsReadingItsAnswerIsClosedByTheIdleTimeout() throws Exception {
    // More than the socket buffers of both ends hold (4 MiB at most each, by Linux's tcp_wmem and
    // tcp_rmem), so the answer stops moving while the client reads nothing.
    try (RandomAccessFile f = new RandomAccessFile(root.resolve("huge.bin").toFile(), "rw")) {
      f.setLength(32L << 20);
    }
    ServiceRuntime idle = ownRuntimes.start(new StaticService(), TestServers.flags(root, "--idle-timeout", "1s", "--engine", engine));
    try (Socket stuck = new Socket()) {
      stuck.setReceiveBufferSize(16 << 10);
      stuck.setSoTimeout(60_000);
      stuck.connect(new InetSocketAddress("127.0.0.1", idle.port()), 10_000);
      stuck.getOutputStream().write("GET /huge.bin HTTP/1.1\r\nHost: t\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      awaitTheStalledAnswerClosed(idle);
      long read = 0;
      try (InputStream in = stuck.getInputStream()) {
        byte[] buf = new byte[1 << 16];
        for (int n; (n = in.read(buf)) > 0; ) {
          read += n;
        }
      } catch (SocketException e) {
        // reset: closed with bytes unsent, as a stalled answer is
      }
      assertThat(read).as("bytes of the answer before the server closed").isLessThan(32L << 20);
    }
    assertThat(StaticServerTest.metricOf(idle, "portshare_static_header_timeouts_total")).isZero();
  }

  /** Nothing is read until the server says it closed the stalled answer for being idle. */
  void awaitTheStalledAnswerClosed(ServiceRuntime server) throws InterruptedException {
    Awaitility.await().atMost(Duration.ofSeconds(20))
        .until(() -> StaticServerTest.metricOf(server, "portshare_static_idle_timeouts_total") == 1);
  }
}
