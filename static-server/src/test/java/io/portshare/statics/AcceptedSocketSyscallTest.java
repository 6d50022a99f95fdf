package io.portshare.statics;

import static org.assertj.core.api.Assertions.assertThat;

import io.portshare.kit.Ci;
import io.portshare.kit.HttpWire;
import io.portshare.kit.ServiceProcess;
import io.vertx.core.transport.Transport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the kernel sees per accepted connection, on the close path: the service under
 * {@code strace -e trace=setsockopt} sets TCP_NODELAY once per accepted socket and none of the
 * options Vert.x would otherwise set to a new socket's own state (TCP_QUICKACK, TCP_CORK,
 * SO_KEEPALIVE off): four setsockopt(2) fewer per connection.
 */
class AcceptedSocketSyscallTest {

  private static final int CONNECTIONS = 20;

  @TempDir
  static Path tmp;

  @Test
  void eachAcceptedSocketGetsOneSetsockopt() throws Exception {
    Ci.require(Transport.EPOLL.available(), "native epoll (Linux)");
    String strace = SendfileSyscallTest.StraceProbe.unavailable();
    Ci.require(strace == null, "strace cannot run here (" + strace + "); .ci/run installs it");
    Path root = Files.createDirectories(tmp.resolve("root"));
    Files.writeString(root.resolve("a.txt"), "a\n");
    Path out = tmp.resolve("setsockopt.trace");
    try (ServiceProcess p = ServiceProcess.launchUnder(List.of("strace", "-f", "--seccomp-bpf", "-e",
        "trace=setsockopt", "-e", "signal=none", "-o", out.toString()), Map.of(), "--service", "static",
        "--port", "0", "--admin-port", "0", "--instances", "1", "--host", "127.0.0.1", "--warmup", "0s",
        "--root", root.toString())) {
      p.awaitReady(Duration.ofSeconds(120));
      String before = Files.readString(out);
      for (int i = 0; i < CONNECTIONS; i++) {
        assertThat(HttpWire.get(p.port(), "/a.txt").text()).isEqualTo("a\n");
      }
      ProcessHandle.of(p.pid()).orElseThrow().children().forEach(ProcessHandle::destroy);
      assertThat(p.awaitExit(Duration.ofSeconds(60))).as(p.output()).isZero();
      String during = Files.readString(out).substring(before.length());

      assertThat(during).as("setsockopt(2) while serving:\n%s", during)
          .doesNotContain("TCP_QUICKACK").doesNotContain("TCP_CORK").doesNotContain("SO_KEEPALIVE");
      assertThat(during.lines().filter(l -> l.contains("TCP_NODELAY"))).as(during).hasSize(CONNECTIONS);
    }
  }
}
