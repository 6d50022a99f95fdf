package io.portshare.bench.seeds;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The storm's kernel counters: parsed as nstat reads them, and seen to move when an accept queue overflows. */
class TcpCountersTest {

  @Test
  void nstatsCountersAreReadByNameWithoutTheirPrefix() {
    Map<String, Long> parsed = TcpCounters.parse(
        "{\"kernel\":{\"TcpExtListenOverflows\":17,\"TcpExtListenDrops\":19,\"TcpExtTCPAbortOnData\":117096}}");
    assertThat(parsed).containsEntry("ListenOverflows", 17L).containsEntry("ListenDrops", 19L)
        .containsEntry("TCPAbortOnData", 117096L).doesNotContainKey("TCPSynRetrans");
  }

  @Test
  void aCounterMissingFromEitherReadingIsNaNNotZero() {
    TcpCounters before = TcpCounters.of(Map.of("ListenOverflows", 5L));
    TcpCounters after = TcpCounters.of(Map.of("ListenOverflows", 12L, "ListenDrops", 4L));
    assertThat(after.since(before, "ListenOverflows")).isEqualTo(7.0);
    assertThat(after.since(before, "ListenDrops")).isNaN();
  }

  @Test
  void aListenerThatNeverAcceptsOverflowsItsQueueAndTheCounterSaysSo() throws Exception {
    TcpCounters before = TcpCounters.read();
    assertThat(before.since(before, "ListenOverflows")).as("this kernel exports ListenOverflows").isZero();
    try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      List<SocketChannel> clients = new ArrayList<>();
      try {
        InetSocketAddress at = new InetSocketAddress(InetAddress.getLoopbackAddress(), listener.getLocalPort());
        for (int i = 0; i < 8; i++) {
          SocketChannel c = SocketChannel.open();
          c.configureBlocking(false);
          c.connect(at);
          clients.add(c);
        }
        await().atMost(Duration.ofSeconds(10))
            .until(() -> TcpCounters.read().since(before, "ListenOverflows") > 0);
      } finally {
        for (SocketChannel c : clients) {
          c.close();
        }
      }
    }
  }
}
