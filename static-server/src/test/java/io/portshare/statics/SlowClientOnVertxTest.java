package io.portshare.statics;

import static org.assertj.core.api.Assertions.assertThat;

import io.portshare.kit.HttpWire;
import io.portshare.runtime.impl.ServiceRuntime;
import java.io.IOException;
import org.junit.jupiter.api.BeforeAll;

/**
 * Every {@link SlowClientTest} again with {@code --engine vertx}, and its differences
 * (static-server/README.md, Engines): Vert.x has no header timeout, and its idle timeout closes
 * quiet and stalled connections as the own engine's does but by itself, uncounted.
 */
class SlowClientOnVertxTest extends SlowClientTest {

  @BeforeAll
  static void start() throws IOException {
    startWith("vertx");
  }

  /**
   * Vert.x has no header timeout, so a head trickled line by line is not cut by --header-timeout
   * (only --max-header-size ends it): it stays open and is answered once complete.
   */
  @Override
  void trickleAHeadPastTheHeaderTimeout() throws Exception {
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

  /** Vert.x's idle timeout closes the connection itself: the service's counter never hears of it. */
  @Override
  long idleTimeoutsCounted() {
    return 0;
  }

  /**
   * With no counter to wait for (see {@link #idleTimeoutsCounted}), nothing is read for well past the
   * idle timeout: this wait is about time. A server that kept the stalled answer open sends all of it
   * once read, which the test refuses.
   */
  @Override
  void awaitTheStalledAnswerClosed(ServiceRuntime server) throws InterruptedException {
    Thread.sleep(5_000);
  }
}
