package io.portshare.statics;

import static org.assertj.core.api.Assertions.assertThat;

import io.portshare.kit.HttpWire;
import io.portshare.runtime.Runtimes;
import io.portshare.runtime.ServiceRuntime;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** Slowloris: a head trickled byte by byte is cut by the header timeout; an idle keep-alive connection is not. */
class SlowClientTest {

  @TempDir
  static Path root;
  @RegisterExtension
  static final Runtimes runtimes = new Runtimes();
  static ServiceRuntime rt;
  static int port;

  @BeforeAll
  static void start() throws IOException {
    Files.writeString(root.resolve("hello.txt"), "hello\n");
    rt = runtimes.start(new StaticService(), TestServers.flags(root, "--header-timeout", "500ms"));
    port = rt.port();
  }

  @Test
  void aTrickledHeadIsClosedByTheHeaderTimeout() throws Exception {
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
}
