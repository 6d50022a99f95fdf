package io.portshare.bench.load;

import io.portshare.kit.FreePorts;
import static org.assertj.core.api.Assertions.assertThat;

import io.portshare.bench.cpu.CpuProbe;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Real sockets against real servers on loopback; asserts what was counted, never how fast. */
class LoadGeneratorTest {

  private static final int CONNECTIONS = 8;

  private static LoadSpec spec(int port, int size, int perConnection, long rate) {
    return new LoadSpec("127.0.0.1", port, CONNECTIONS, perConnection, size, Duration.ofMillis(500),
        Duration.ofSeconds(2), rate, 2, Duration.ofSeconds(5));
  }

  @Test
  void closedLoopWithLongConnectionsKeepsEachConnectionFor1024Transactions() throws Exception {
    try (EchoServer server = new EchoServer(0)) {
      Measurement r = LoadGenerator.run(spec(server.port(), 64, 1024, 0), Progress.none());
      assertThat(r.operations()).isPositive();
      assertThat(r.perSecond()).isPositive();
      assertThat(r.errors()).isEmpty();
      assertThat(r.latency().count()).isEqualTo(r.operations());
      assertThat(r.latency().p50()).isPositive().isLessThanOrEqualTo(r.latency().max());
      // Every connection but the ones open at the end carried exactly 1024 frames.
      long full = server.frames() / 1024;
      assertThat(server.connections()).isBetween(full, full + CONNECTIONS);
      assertThat(server.frames()).isGreaterThanOrEqualTo(r.operations());
    }
  }

  @Test
  void closedLoopWithOneTransactionPerConnectionOpensAConnectionPerTransaction() throws Exception {
    try (EchoServer server = new EchoServer(0)) {
      Measurement r = LoadGenerator.run(spec(server.port(), 1024, 1, 0), Progress.none());
      assertThat(r.operations()).isPositive();
      assertThat(r.errors()).isEmpty();
      // One frame per connection: a connection opened last may not have sent its frame yet.
      assertThat(server.connections()).isBetween(server.frames(), server.frames() + CONNECTIONS);
      assertThat(server.frames()).isGreaterThanOrEqualTo(r.operations());
    }
  }

  @Test
  void theRunRecordsTheClientsCpuAndTheServersWhenItsProcessIsGiven() throws Exception {
    try (EchoServer server = new EchoServer(0)) {
      // The echo server runs in this JVM: the "server" CPU is this process's, which is all the test needs.
      Measurement r = LoadGenerator.run(spec(server.port(), 64, 1, 0), Progress.none(),
          CpuProbe.processes(List.of(ProcessHandle.current().pid())));
      assertThat(r.cpu().client()).isPositive();
      assertThat(r.cpu().server()).isPositive();
      assertThat(r.cpu().clientCores()).isBetween(1, 2);
      assertThat(r.clientCpuMicrosPerOp()).isPositive();
      assertThat(r.seconds()).isEqualTo(2.0);
    }
  }

  @Test
  void openLoopMeasuresAtTheGivenRate() throws Exception {
    try (EchoServer server = new EchoServer(0)) {
      Measurement r = LoadGenerator.run(spec(server.port(), 64, 1024, 2000), Progress.none());
      assertThat(r.errors()).isEmpty();
      // Replies to requests that fell behind during the warm-up may land in the window, but nothing
      // can be answered that was not due by its end: 2000/s over warm-up + duration, plus one per connection.
      // And an open loop keeps its schedule: 2000/s is far below what an in-process echo answers, so at
      // least 90% of what was due in the measured window is answered in it (one operation passed before).
      assertThat(r.operations()).isBetween((long) (2000 * r.seconds() * 0.9), 2000L * 2550 / 1000 + CONNECTIONS);
      assertThat(r.latency().count()).isEqualTo(r.operations());
    }
  }

  @Test
  void oneCorruptedByteIsCountedAsWrongPayload() throws Exception {
    try (EchoServer server = new EchoServer(10)) {
      Measurement r = LoadGenerator.run(spec(server.port(), 64, 1024, 0), Progress.none());
      assertThat(r.errors()).containsOnlyKeys(ErrorKind.WRONG_PAYLOAD.label());
      assertThat(r.errors().get(ErrorKind.WRONG_PAYLOAD.label())).isPositive();
      assertThat(r.operations()).isPositive(); // the generator reconnects and goes on
    }
  }

  @Test
  void aClosedPortIsCountedAsConnectRefused() throws Exception {
    int port = FreePorts.block(1);
    LoadSpec spec = new LoadSpec("127.0.0.1", port, 2, 1, 64, Duration.ZERO, Duration.ofMillis(300), 0, 1,
        Duration.ofSeconds(1));
    Measurement r = LoadGenerator.run(spec, Progress.none());
    assertThat(r.operations()).isZero();
    assertThat(r.errors()).containsOnlyKeys(ErrorKind.CONNECT_REFUSED.label());
  }

  @Test
  void aServerThatClosesWithoutAnsweringIsCountedAsClosed() throws Exception {
    try (RudeServer server = new RudeServer(false)) {
      Measurement r = LoadGenerator.run(spec(server.port(), 64, 1024, 0), Progress.none());
      assertThat(r.operations()).isZero();
      assertThat(r.errors()).containsOnlyKeys(ErrorKind.CLOSED.label());
    }
  }

  @Test
  void aServerThatResetsIsCountedAsReset() throws Exception {
    try (RudeServer server = new RudeServer(true)) {
      Measurement r = LoadGenerator.run(spec(server.port(), 64, 1024, 0), Progress.none());
      assertThat(r.operations()).isZero();
      assertThat(r.errors()).containsOnlyKeys(ErrorKind.RESET.label());
    }
  }
}
