package io.portshare.soak;

import io.portshare.kit.RpcWire;

import io.portshare.kit.ServiceProcess;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import io.portshare.kit.Repository;
import org.junit.jupiter.api.Test;

/**
 * At the open-files limit a server says so in one clear line of its own, keeps the connections it
 * has, and serves the waiting ones once descriptors free up. Run under prlimit with a small limit.
 */
class DescriptorLimitTest {


  private static ServiceProcess startWithLimit(int limit) throws Exception {
    assumeTrue(Files.isExecutable(Path.of("/usr/bin/prlimit")), "needs prlimit(1) (util-linux)");
    return ServiceProcess.launchJar(List.of("/usr/bin/prlimit", "--nofile=" + limit + ":" + limit, "--"),
        Repository.serviceJar("rpc-server"), Map.of(), "--port", "0", "--admin-port", "0", "--host", "127.0.0.1", "--instances", "1");
  }

  @Test
  void atTheLimitTheServerLogsOneClearLineAndServesTheWaitingOnesLater() throws Exception {
    try (ServiceProcess s = startWithLimit(200).awaitReady(Duration.ofSeconds(60))) {
      List<RpcWire> held = new ArrayList<>();
      byte[] frame = RpcWire.frame(16, 1);
      try {
        for (int i = 0; i < 300; i++) {
          held.add(new RpcWire(s.port())); // beyond the limit they wait in the backlog
        }
        int served = 0;
        for (RpcWire w : held) {
          w.socket().setSoTimeout(200);
          try {
            w.transact(frame);
            served++;
          } catch (IOException e) {
            // Not accepted yet: the server is at its limit.
          }
        }
        assertThat(served).as("connections served while at the limit").isBetween(100, 299);
      } finally {
        held.forEach(RpcWire::close);
      }
      try (RpcWire w = new RpcWire(s.port())) {
        w.transact(frame);
      }
      String log = s.output();
      assertThat(log).doesNotContain("reached at the tail of the pipeline").doesNotContainPattern("(?m)^\\s+at ");
      assertThat(log).containsPattern("(?i)(open files|descriptor).*limit");
    }
  }
}
