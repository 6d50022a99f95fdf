package io.portshare.statics;

import static org.assertj.core.api.Assertions.assertThat;

import io.portshare.kit.HttpWire;
import io.portshare.runtime.ServiceRuntime;
import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link SlowClientTest} with {@code --engine vertx}, and its differences (static-server/README.md,
 * Engines): Vert.x has no header timeout, so a head trickled line by line is not cut by
 * --header-timeout (only --max-header-size ends it); its idle timeout closes quiet and stalled
 * connections as the own engine's does, but closes them itself, so
 * {@code portshare_static_idle_timeouts_total} does not count them.
 */
class SlowClientOnVertxTest extends SlowClientTest {

  @BeforeAll
  static void start() throws IOException {
    startWith("vertx");
  }

  @Override
  @Test
  void aTrickledHeadIsClosedByTheHeaderTimeout() throws Exception {
    try (HttpWire c = new HttpWire(port)) {
      c.send("GET /hello.txt HTTP/1.1\r\n");
      // Three header timeouts of a trickling head, each line well inside the idle timeout: still open.
      for (int i = 0; i < 10; i++) {
        c.send("X-Slow-" + i + ": x\r\n");
        assertThat(c.closedByServer(150)).as("closed after %d lines", i).isFalse();
      }
      c.send("Host: t\r\n\r\n");
      assertThat(c.read(false).text()).isEqualTo("hello\n");
    }
    assertThat(StaticServerTest.metricOf(rt, "portshare_static_header_timeouts_total")).isZero();
  }

  @Override
  @Test
  void aQuietKeepAliveConnectionIsClosedByTheIdleTimeoutAndCountedSo() throws Exception {
    ServiceRuntime idle = ownRuntimes.start(new StaticService(),
        TestServers.flags(root, "--idle-timeout", "1s", "--engine", "vertx"));
    try (HttpWire c = new HttpWire(idle.port())) {
      c.send("GET /hello.txt HTTP/1.1\r\nHost: t\r\n\r\n");
      assertThat(c.read(false).text()).isEqualTo("hello\n");
      long quietSince = System.nanoTime();
      assertThat(c.closedByServer(10_000)).as("closed after the idle timeout").isTrue();
      assertThat(Duration.ofNanos(System.nanoTime() - quietSince)).isBetween(Duration.ofMillis(900),
          Duration.ofSeconds(5));
    }
    // The difference: Vert.x closed it; the service's counter never heard of it.
    assertThat(StaticServerTest.metricOf(idle, "portshare_static_idle_timeouts_total")).isZero();
  }

  @Override
  @Test
  void aClientThatStopsReadingItsAnswerIsClosedByTheIdleTimeout() throws Exception {
    try (RandomAccessFile f = new RandomAccessFile(root.resolve("huge.bin").toFile(), "rw")) {
      f.setLength(32L << 20);
    }
    ServiceRuntime idle = ownRuntimes.start(new StaticService(),
        TestServers.flags(root, "--idle-timeout", "1s", "--engine", "vertx"));
    try (Socket stuck = new Socket()) {
      stuck.setReceiveBufferSize(16 << 10);
      stuck.setSoTimeout(60_000);
      stuck.connect(new InetSocketAddress("127.0.0.1", idle.port()), 10_000);
      stuck.getOutputStream().write("GET /huge.bin HTTP/1.1\r\nHost: t\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      // With no counter to wait for (see above), nothing is read for well past the idle timeout: this
      // test is about time. A server that kept the stalled answer open sends all 32 MiB once read.
      Thread.sleep(5_000);
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
  }
}
