package io.portshare.soak;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.portshare.kit.Ci;
import io.portshare.kit.Repository;
import io.portshare.kit.RpcWire;
import io.portshare.kit.ServiceProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * At the open-files limit a server says so in one clear line of its own, keeps the connections it
 * has, and serves the waiting ones once descriptors free up; with too few descriptors to start at
 * all it says that, not something else. Run under prlimit with a small limit.
 */
class DescriptorLimitTest {

  private static final int LIMIT = 200;
  private static final int CLIENTS = 300;
  /** Accepted connections closed once the limit is reached, to free descriptors for waiting ones. */
  private static final int FREED = 20;

  private static ServiceProcess startWithLimit(int limit, String instances) throws Exception {
    Ci.require(Files.isExecutable(Path.of("/usr/bin/prlimit")), "needs prlimit(1) (util-linux)");
    return ServiceProcess.launchJar(List.of("/usr/bin/prlimit",
        "--nofile=" + limit + ":" + limit, "--"), Repository.serviceJar("rpc-server"), Map.of(), "--port", "0", "--admin-port", "0", "--host", "127.0.0.1",
        "--instances", instances);
  }

  @Test
  void atTheLimitTheServerLogsOneClearLineAndServesTheWaitingOnesLater() throws Exception {
    try (ServiceProcess s = startWithLimit(LIMIT, "1").awaitReady(Duration.ofSeconds(60))) {
      // What the server has open before any client comes; each connection it accepts takes one more.
      long before = openDescriptors(s.pid());
      List<RpcWire> held = new ArrayList<>();
      byte[] frame = RpcWire.frame(16, 1);
      try {
        for (int i = 0; i < CLIENTS; i++) {
          held.add(new RpcWire(s.port())); // beyond the limit they wait in the backlog
        }
        await().atMost(Duration.ofSeconds(20)).until(() -> openDescriptors(s.pid()) == LIMIT);
        Set<Long> acceptedPorts = ProcessKill.serverPidByClientPort(s.port()).entrySet().stream()
            .filter(e -> e.getValue() == s.pid()).map(Map.Entry::getKey).collect(Collectors.toSet());
        int servedAccepted = 0;
        int servedWaiting = 0;
        for (RpcWire w : held) {
          boolean accepted = acceptedPorts.contains((long) w.socket().getLocalPort());
          // An accepted connection has all the time it needs; a waiting one must not be answered.
          w.socket().setSoTimeout(accepted ? 10_000 : 200);
          try {
            w.transact(frame);
            servedAccepted += accepted ? 1 : 0;
            servedWaiting += accepted ? 0 : 1;
          } catch (IOException e) {
            // A waiting one is not accepted while the server is at its limit.
          }
        }
        // Every descriptor left was taken by a connection, give or take the two or three the JVM
        // may open for itself meanwhile (a lazily loaded class path entry, a timer): the limit, not
        // the server, decides how many are held, and each one held is served.
        assertThat((long) acceptedPorts.size()).as("connections accepted at the limit (%d open before)", before)
            .isBetween(LIMIT - before - 3, LIMIT - before);
        assertThat(servedAccepted).as("accepted connections served").isEqualTo(acceptedPorts.size());
        assertThat(servedWaiting).as("waiting connections served while at the limit").isZero();

        // Descriptors free up: FREED of the accepted connections go. The server closes its ends and,
        // its pause after the last failed accept over, accepts waiting ones again, up to the limit.
        List<RpcWire> waiting = new ArrayList<>();
        int freed = 0;
        for (RpcWire w : held) {
          if (!acceptedPorts.contains((long) w.socket().getLocalPort())) {
            waiting.add(w);
          } else if (freed < FREED) {
            w.close();
            freed++;
          }
        }
        Set<Long> waitingPorts =
            waiting.stream().map(w -> (long) w.socket().getLocalPort()).collect(Collectors.toSet());
        await().atMost(Duration.ofSeconds(30)).until(() -> acceptedOf(s, waitingPorts).size() >= FREED - 3);
        Set<Long> acceptedLater = acceptedOf(s, waitingPorts);
        int servedLater = 0;
        for (RpcWire w : waiting) {
          if (acceptedLater.contains((long) w.socket().getLocalPort())) {
            // Its frame was sent while it waited: the answer comes now.
            w.socket().setSoTimeout(10_000);
            w.expect(frame);
            servedLater++;
          }
        }
        assertThat(servedLater)
            .as("waiting connections accepted and served once %d descriptors were freed", FREED)
            .isGreaterThanOrEqualTo(FREED - 3);
      } finally {
        held.forEach(RpcWire::close);
      }
      try (RpcWire w = new RpcWire(s.port())) {
        w.transact(frame);
      }
      String log = s.output();
      assertThat(log).doesNotContain("reached at the tail of the pipeline").doesNotContainPattern("(?m)^\\s+at ");
      assertThat(log).contains("rpc: cannot accept connections: out of file descriptors (open files limit " + LIMIT + ", ");
    }
  }

  /** 16 event loops need more than 40 descriptors (an epoll, an eventfd, a timerfd each) before listening. */
  @Test
  void tooFewDescriptorsToStartIsNotReportedAsAPortInUse() throws Exception {
    try (ServiceProcess s = startWithLimit(40, "16")) {
      assertThat(s.awaitExit(Duration.ofSeconds(60))).isEqualTo(1);
      assertThat(s.output()).doesNotContain("address already in use").doesNotContainPattern("(?m)^\\s+at ")
          .containsPattern("(?m)^portshare: cannot start rpc: out of file descriptors \\(open files limit 40\\); "
              + "raise the limit \\(ulimit -n\\) or lower --instances$");
    }
  }

  /** Those of {@code clientPorts} whose connection the server has accepted now. */
  private static Set<Long> acceptedOf(ServiceProcess s, Set<Long> clientPorts)
      throws IOException, InterruptedException {
    return ProcessKill.serverPidByClientPort(s.port()).entrySet().stream()
        .filter(e -> e.getValue() == s.pid() && clientPorts.contains(e.getKey())).map(Map.Entry::getKey)
        .collect(Collectors.toSet());
  }

  private static long openDescriptors(long pid) throws IOException {
    try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
      return fds.count();
    }
  }
}
