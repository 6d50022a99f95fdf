package io.portshare.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Real sockets against a real echo server on loopback; asserts what was counted, never how fast. */
class LoadGeneratorTest {

  private static LoadSpec spec(int port, int size, int perConnection, long rate) {
    return new LoadSpec("127.0.0.1", port, 8, perConnection, size, Duration.ofMillis(500), Duration.ofSeconds(2),
        rate, 2, Duration.ofSeconds(5));
  }

  @Test
  void closedLoopWithLongConnectionsCountsTransactionsAndNoErrors() throws Exception {
    try (EchoServer server = new EchoServer(0)) {
      LoadResult r = LoadGenerator.run(spec(server.port(), 64, 1024, 0), Progress.none());
      assertThat(r.transactions()).isPositive();
      assertThat(r.transPerSecond()).isPositive();
      assertThat(r.errors()).isEmpty();
      assertThat(r.latency().count()).isEqualTo(r.transactions());
      assertThat(r.latency().p50()).isPositive().isLessThanOrEqualTo(r.latency().max());
    }
  }

  @Test
  void closedLoopWithOneTransactionPerConnectionReconnects() throws Exception {
    try (EchoServer server = new EchoServer(0)) {
      LoadResult r = LoadGenerator.run(spec(server.port(), 1024, 1, 0), Progress.none());
      assertThat(r.transactions()).isPositive();
      assertThat(r.errors()).isEmpty();
    }
  }

  @Test
  void openLoopMeasuresAtTheGivenRate() throws Exception {
    try (EchoServer server = new EchoServer(0)) {
      LoadResult r = LoadGenerator.run(spec(server.port(), 64, 1024, 2000), Progress.none());
      assertThat(r.errors()).isEmpty();
      // Replies to requests that fell behind during the warm-up may land in the window, but nothing
      // can be answered that was not due by its end: 2000/s over warm-up + duration, plus one per connection.
      assertThat(r.transactions()).isBetween(1L, 2000L * 2520 / 1000 + 8);
      assertThat(r.latency().count()).isEqualTo(r.transactions());
    }
  }

  @Test
  void oneCorruptedByteIsCountedAsWrongPayload() throws Exception {
    try (EchoServer server = new EchoServer(10)) {
      LoadResult r = LoadGenerator.run(spec(server.port(), 64, 1024, 0), Progress.none());
      assertThat(r.errors()).containsKey(ErrorKind.WRONG_PAYLOAD);
      assertThat(r.errors().get(ErrorKind.WRONG_PAYLOAD)).isPositive();
      assertThat(r.transactions()).isPositive(); // the generator reconnects and goes on
    }
  }

  @Test
  void aClosedPortIsCountedAsConnectRefused() throws Exception {
    int port;
    try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
      port = s.getLocalPort();
    }
    LoadSpec spec = new LoadSpec("127.0.0.1", port, 2, 1, 64, Duration.ZERO, Duration.ofMillis(300), 0, 1,
        Duration.ofSeconds(1));
    LoadResult r = LoadGenerator.run(spec, Progress.none());
    assertThat(r.transactions()).isZero();
    assertThat(r.errors()).containsKey(ErrorKind.CONNECT_REFUSED);
  }
}
