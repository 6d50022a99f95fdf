package io.portshare.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.portshare.kit.PrometheusText;
import io.portshare.kit.RpcWire;
import io.portshare.rpc.client.RpcClient;
import io.portshare.rpc.client.RpcClientOptions;
import io.portshare.rpc.client.RpcConnection;
import io.portshare.runtime.Runtimes;
import io.portshare.runtime.impl.ServiceRuntime;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.junit5.VertxExtension;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The echo service over real loopback sockets, started in-process as the launcher would start it. */
@ExtendWith(VertxExtension.class)
class EchoServerTest {

  @RegisterExtension
  final Runtimes runtimes = new Runtimes();
  private ServiceRuntime runtime;

  private ServiceRuntime start(String... extra) {
    List<String> flags = new ArrayList<>(List.of("--port", "0", "--admin-port", "0", "--host", "127.0.0.1",
        "--instances", "2", "--mode", "shared"));
    flags.addAll(engineFlags());
    flags.addAll(List.of(extra));
    runtime = runtimes.start(new RpcService(), flags.toArray(String[]::new));
    return runtime;
  }

  /** The flags that choose the engine under test: none, the default (own). {@code ...OnVertxTest} overrides it. */
  List<String> engineFlags() {
    return List.of();
  }

  static <T> T get(Future<T> f) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
  }

  private double metric(String name) {
    return PrometheusText.parse(runtime.registry().scrape()).sum(name);
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 64, 1024, 1 << 20})
  void roundTripsOneFrameOfEachSize(int size, Vertx vertx) throws Exception {
    start();
    RpcClient client = RpcClient.create(vertx);
    RpcConnection conn = get(client.connect(runtime.port(), "127.0.0.1"));
    Buffer payload = Buffer.buffer(RpcWire.payload(size, size));
    get(conn.send(payload));
    get(conn.send(payload));
    assertThat(conn.answered()).isEqualTo(2);

    // And by hand, so the check does not rest on the client alone.
    try (RpcWire raw = new RpcWire(runtime.port())) {
      raw.write(RpcWire.frame(payload.getBytes()));
      assertThat(raw.readFrame()).isEqualTo(payload.getBytes());
    }
    await().untilAsserted(() -> assertThat(metric("portshare_rpc_transactions_total")).isEqualTo(3.0));
    assertThat(metric("portshare_rpc_received_bytes_total")).isEqualTo(3.0 * (4 + size));
    assertThat(metric("portshare_rpc_sent_bytes_total")).isEqualTo(3.0 * (4 + size));
    get(client.close());
  }

  @Test
  void answersAThousandPipelinedFramesInOrder(Vertx vertx) throws Exception {
    start();
    RpcClient client = RpcClient.create(vertx, new RpcClientOptions().setPipelineDepth(1000));
    RpcConnection conn = get(client.connect(runtime.port(), "127.0.0.1"));
    List<Future<Void>> answers = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      answers.add(conn.send(Buffer.buffer(RpcWire.payload(1 + i % 200, i))));
    }
    get(Future.all(answers));
    assertThat(conn.answered()).isEqualTo(1000);

    // Many frames in one write, hence many in one read on the server.
    try (RpcWire raw = new RpcWire(runtime.port())) {
      ByteArrayOutputStream all = new ByteArrayOutputStream();
      for (int i = 0; i < 1000; i++) {
        all.write(RpcWire.frame(RpcWire.payload(i % 100, i)));
      }
      raw.write(all.toByteArray());
      for (int i = 0; i < 1000; i++) {
        assertThat(raw.readFrame()).as("answer %d", i).isEqualTo(RpcWire.payload(i % 100, i));
      }
    }
    get(client.close());
  }

  @Test
  void reassemblesAFrameWrittenOneByteAtATime() throws Exception {
    start();
    byte[] payload = RpcWire.payload(64, 3);
    byte[] frame = RpcWire.frame(payload);
    try (RpcWire raw = new RpcWire(runtime.port())) {
      for (int round = 0; round < 2; round++) {
        for (byte b : frame) {
          raw.write(new byte[] {b});
          // Let each byte go out as its own segment and be read on its own.
          Thread.sleep(1);
        }
        assertThat(raw.readFrame()).isEqualTo(payload);
      }
      // A frame and a half, then the rest: the half is kept across reads.
      byte[] second = RpcWire.frame(RpcWire.payload(100, 4));
      byte[] both = new byte[frame.length + second.length];
      System.arraycopy(frame, 0, both, 0, frame.length);
      System.arraycopy(second, 0, both, frame.length, second.length);
      raw.write(Arrays.copyOf(both, frame.length + 50));
      assertThat(raw.readFrame()).isEqualTo(payload);
      Thread.sleep(5);
      raw.write(Arrays.copyOfRange(both, frame.length + 50, both.length));
      assertThat(raw.readFrame()).isEqualTo(RpcWire.payload(100, 4));
    }
  }

  @Test
  void closesAConnectionThatDeclaresTooLongAFrameAndKeepsServingOthers(Vertx vertx) throws Exception {
    start("--max-frame", "1KiB");
    RpcClient client = RpcClient.create(vertx);
    RpcConnection good = get(client.connect(runtime.port(), "127.0.0.1"));
    get(good.send(Buffer.buffer(RpcWire.payload(1024, 1))));

    try (RpcWire oversize = new RpcWire(runtime.port())) {
      // One good frame, then a length one above the limit: the first is answered, then the close.
      byte[] ok = RpcWire.frame(RpcWire.payload(10, 2));
      byte[] bad = {0, 0, 4, 1, 9, 9, 9};
      byte[] both = new byte[ok.length + bad.length];
      System.arraycopy(ok, 0, both, 0, ok.length);
      System.arraycopy(bad, 0, both, ok.length, bad.length);
      oversize.write(both);
      assertThat(oversize.readFrame()).isEqualTo(RpcWire.payload(10, 2));
      assertThat(oversize.closedByPeer()).isTrue();
    }
    try (RpcWire garbage = new RpcWire(runtime.port())) {
      garbage.write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      assertThat(garbage.closedByPeer()).isTrue();
    }
    try (RpcWire huge = new RpcWire(runtime.port())) {
      huge.write(new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff});
      assertThat(huge.closedByPeer()).isTrue();
    }
    get(good.send(Buffer.buffer(RpcWire.payload(1024, 5))));
    assertThat(good.answered()).isEqualTo(2);
    await().untilAsserted(() -> assertThat(metric("portshare_rpc_frames_rejected_total")).isEqualTo(3.0));
    get(client.close());
  }

  @Test
  void answersEveryFrameBeforeARejectedOneThoughMoreBytesFollowIt() throws Exception {
    start("--max-frame", "1KiB");
    // 2 MiB of answers, more than the socket buffers hold: some are still queued in the server
    // when it rejects. Closing outright with the bytes after the bad header unread would send RST
    // and throw those answers away; the server half-closes and lingers instead.
    int frames = 2048;
    byte[] frame = RpcWire.frame(RpcWire.payload(1024, 3));
    ByteArrayOutputStream stream = new ByteArrayOutputStream();
    for (int i = 0; i < frames; i++) {
      stream.write(frame);
    }
    stream.write(new byte[] {0, 0, 4, 1});
    stream.write(new byte[256 * 1024]);
    byte[] bytes = stream.toByteArray();
    try (RpcWire c = new RpcWire(runtime.port())) {
      Thread writer = new Thread(() -> {
        try {
          c.write(bytes);
        } catch (IOException e) {
          // The server may be gone before the last bytes: what matters is what comes back.
        }
      });
      writer.start();
      for (int i = 0; i < frames; i++) {
        assertThat(c.readFrame()).as("answer %d", i).isEqualTo(RpcWire.payload(1024, 3));
      }
      assertThat(c.closedByPeer()).isTrue();
      writer.join(10_000);
    }
    await().untilAsserted(() -> assertThat(metric("portshare_rpc_frames_rejected_total")).isEqualTo(1.0));
  }

  /**
   * How the engine closes after a rejected frame. The own engine half-closes and lingers
   * ({@code LingeringClose}): the peer reads FIN and may go on writing for a while, every write
   * read and dropped. A {@code NetSocket} cannot half-close, so the Vert.x engine reads and drops
   * until the peer is quiet, then closes outright: a write after its FIN meets a reset.
   */
  boolean lingersAfterFin() {
    return true;
  }

  @Test
  void afterARejectedFrameThePeerMayWriteOnPastTheFinOnlyWhereTheServerLingers() throws Exception {
    start("--max-frame", "1KiB");
    try (RpcWire c = new RpcWire(runtime.port())) {
      c.write(new byte[] {0, 0, 4, 1});
      assertThat(c.closedByPeer()).isTrue();
      // The first write after a full close is what draws the reset; the ones after it fail.
      boolean acceptedAll = true;
      for (int i = 0; i < 20 && acceptedAll; i++) {
        try {
          c.write(new byte[] {1});
          Thread.sleep(10);
        } catch (IOException e) {
          acceptedAll = false;
        }
      }
      assertThat(acceptedAll).as("writes after the FIN accepted for 200 ms").isEqualTo(lingersAfterFin());
    }
    await().untilAsserted(() -> assertThat(metric("portshare_rpc_frames_rejected_total")).isEqualTo(1.0));
  }

  @Test
  void idleTimeoutClosesAConnectionLeftHalfwayThroughAFrame() throws Exception {
    start("--idle-timeout", "300ms");
    try (RpcWire raw = new RpcWire(runtime.port())) {
      raw.write(new byte[] {0, 0, 0, 10, 1, 2});
      assertThat(raw.closedByPeer()).isTrue();
    }
    await().untilAsserted(() -> assertThat(metric("portshare_rpc_idle_closed_total")).isEqualTo(1.0));
  }

  @Test
  void stopsReadingFromAClientThatNeverReadsItsAnswers(Vertx vertx) throws Exception {
    start();
    long toWrite = 256L << 20;
    RpcWire hog = new RpcWire(runtime.port());
    hog.socket().setReceiveBufferSize(64 * 1024);
    byte[] frame = RpcWire.frame(RpcWire.payload(64 * 1024 - 4, 9));
    Thread writer = new Thread(() -> {
      try {
        for (long sent = 0; sent < toWrite; sent += frame.length) {
          hog.write(frame);
        }
      } catch (IOException e) {
        // Closed at the end of the test while blocked in write.
      }
    }, "hog-writer");
    writer.setDaemon(true);
    writer.start();

    // The server stops reading once its answers back up: what it has read stops growing, far
    // short of what the client would send, and the client's writer is left blocked.
    double[] last = {-1};
    await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).until(() -> {
      double now = metric("portshare_rpc_received_bytes_total");
      boolean stable = now > 0 && now == last[0];
      last[0] = now;
      return stable;
    });
    assertThat(last[0]).isLessThan(64.0 * (1 << 20));
    assertThat(writer.isAlive()).isTrue();

    // Everyone else is still served.
    RpcConnection other = get(RpcClient.create(vertx).connect(runtime.port(), "127.0.0.1"));
    get(other.send(Buffer.buffer("still here")));

    hog.close();
    writer.join(10_000);
  }
}
