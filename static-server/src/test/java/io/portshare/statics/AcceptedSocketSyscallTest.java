package io.portshare.statics;

import static org.assertj.core.api.Assertions.assertThat;

import io.portshare.kit.Ci;
import io.portshare.kit.HttpWire;
import io.portshare.kit.ServiceProcess;
import io.portshare.kit.Strace;
import io.vertx.core.transport.Transport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * What the kernel sees per accepted connection, on the close path, under {@code strace}, on each
 * {@code --channel}. On both the service sets TCP_NODELAY once per accepted socket and none of the
 * options Vert.x would otherwise set to a new socket's own state (TCP_QUICKACK, TCP_CORK,
 * SO_KEEPALIVE off): four setsockopt(2) fewer per connection. On the lean channels a connection
 * enters epoll with its final interest in one {@code EPOLL_CTL_ADD} and no {@code EPOLL_CTL_MOD},
 * and close(2) alone takes it out of epoll (no {@code EPOLL_CTL_DEL}); its local address and
 * SO_LINGER are never asked for, and its send buffer size only for the first connection. Netty's
 * own channels make one of each of those per connection: the counts below are what
 * {@code --channel} chooses between, and a Netty upgrade that changes either set shows here.
 */
class AcceptedSocketSyscallTest {

  private static final int CONNECTIONS = 20;
  /** {@code 4045  epoll_ctl(76, EPOLL_CTL_ADD, 79, {events=EPOLLIN|EPOLLRDHUP, ...}) = 0}: a connection's. */
  private static final Pattern ADDED_CONNECTION = Pattern.compile("EPOLL_CTL_ADD, (\\d+), \\{events=[^}]*EPOLLRDHUP");
  private static final Pattern DELETED = Pattern.compile("EPOLL_CTL_DEL, (\\d+),");

  @TempDir
  static Path tmp;

  @ParameterizedTest(name = "--channel {0}: per connection {1} EPOLL_CTL_MOD, {2} EPOLL_CTL_DEL, {3} getsockname,"
      + " {4} SO_SNDBUF, {5} SO_LINGER")
  @CsvSource({
      // channel, MOD, DEL, getsockname, SO_SNDBUF, SO_LINGER per connection (SO_SNDBUF: lean asks once per listener)
      "lean,  0, 0, 1, 0, 0",
      "netty, 1, 1, 2, 1, 1",
  })
  void eachAcceptedSocketsSystemCallsOnEachChannel(String channel, int mods, int dels, int getsocknames, int sndbufs,
      int lingers) throws Exception {
    Ci.require(Transport.EPOLL.available(), "native epoll (Linux)");
    String strace = Strace.unavailable();
    Ci.require(strace == null, "strace cannot run here (" + strace + "); .ci/run installs it");
    Path root = Files.createDirectories(tmp.resolve("root"));
    Files.writeString(root.resolve("a.txt"), "a\n");
    Path out = tmp.resolve("accepted.trace");
    try (ServiceProcess p = ServiceProcess.launchUnder(List.of("strace", "-f", "--seccomp-bpf", "-e",
        "trace=setsockopt,getsockopt,getsockname,epoll_ctl", "-e", "signal=none", "-o", out.toString()), Map.of(), "--service", "static",
        "--port", "0", "--admin-port", "0", "--instances", "1", "--host", "127.0.0.1", "--warmup", "0s",
        "--root", root.toString(), "--channel", channel)) {
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
      // Connections are added with EPOLLRDHUP; a listener or timer the service registers just after it is
      // ready (a race with the trace's "before") is no cost per connection.
      assertThat(during.lines().filter(l -> l.contains("EPOLL_CTL_ADD") && l.contains("EPOLLRDHUP"))).as(during)
          .hasSize(CONNECTIONS);
      assertThat(during.lines().filter(l -> l.contains("EPOLL_CTL_MOD"))).as(during).hasSize(mods * CONNECTIONS);
      assertThat(during.lines().filter(l -> l.contains("SO_LINGER"))).as(during).hasSize(lingers * CONNECTIONS);
      // The listeners leave epoll by EPOLL_CTL_DEL as the service stops; connections (added with EPOLLRDHUP) as counted.
      Set<String> connections = fds(ADDED_CONNECTION, during);
      assertThat(connections).as(during).isNotEmpty();
      long connectionDels = during.lines().filter(l -> {
        Matcher m = DELETED.matcher(l);
        return m.find() && connections.contains(m.group(1));
      }).count();
      if (dels == 0) {
        assertThat(connectionDels).as(during).isZero();
      } else {
        // A connection's descriptor number comes back for the next one: each may have several DELs.
        assertThat(connectionDels).as(during).isGreaterThanOrEqualTo(CONNECTIONS * dels);
      }
      long sndbuf = during.lines().filter(l -> l.contains("SO_SNDBUF")).count();
      if (sndbufs == 0) {
        assertThat(sndbuf).as("SO_SNDBUF, asked for the listener's first connection only:\n%s", during)
            .isLessThanOrEqualTo(1);
      } else {
        assertThat(sndbuf).as(during).isEqualTo((long) sndbufs * CONNECTIONS);
      }
      // One getsockname(2) per socket is left on the lean channels: Netty's socket object asks whether it
      // is IPv6 as it is made; Netty's own channel asks again for the local address.
      assertThat(during.lines().filter(l -> l.contains("getsockname("))).as(during)
          .hasSize(getsocknames * CONNECTIONS);
    }
  }

  private static Set<String> fds(Pattern call, String trace) {
    Set<String> fds = new HashSet<>();
    Matcher m = call.matcher(trace);
    while (m.find()) {
      fds.add(m.group(1));
    }
    return fds;
  }
}
