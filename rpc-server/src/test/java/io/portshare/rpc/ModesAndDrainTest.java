package io.portshare.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.portshare.kit.PrometheusText;
import io.portshare.kit.RpcWire;
import io.portshare.rpc.client.RpcClient;
import io.portshare.rpc.client.RpcClientOptions;
import io.portshare.runtime.Runtimes;
import io.portshare.runtime.impl.ServiceRuntime;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.junit5.VertxExtension;
import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Both scaling modes under many short connections, and the graceful drain with work in flight. */
@ExtendWith(VertxExtension.class)
class ModesAndDrainTest {

  private static final int CONNECTIONS = 10_000;
  private static final int CONCURRENT = 32;

  @RegisterExtension
  final Runtimes runtimes = new Runtimes();
  private ServiceRuntime runtime;

  private ServiceRuntime start(String mode) {
    return start(mode, 2);
  }

  private ServiceRuntime start(String mode, int instances) {
    List<String> flags = new ArrayList<>(List.of("--port", "0", "--admin-port", "0", "--host", "127.0.0.1",
        "--instances", Integer.toString(instances), "--mode", mode));
    flags.addAll(engineFlags());
    runtime = runtimes.start(new RpcService(), flags.toArray(String[]::new));
    return runtime;
  }

  /** The flags that choose the engine under test: none, the default (own). {@code ...OnVertxTest} overrides it. */
  List<String> engineFlags() {
    return List.of();
  }


  @ParameterizedTest
  @ValueSource(strings = {"shared", "reuseport"})
  void servesTenThousandShortConnectionsWithoutAnError(String mode, Vertx vertx) throws Exception {
    start(mode);
    runtimePort = runtime.port();
    // One transaction per connection, closed with a reset as load generators do.
    RpcClient client = RpcClient.create(vertx, new RpcClientOptions().setResetOnClose(true));
    Buffer frame = Buffer.buffer(RpcWire.frame(64, 0));
    AtomicInteger started = new AtomicInteger();
    AtomicInteger ok = new AtomicInteger();
    AtomicReference<Throwable> firstError = new AtomicReference<>();
    Promise<Void> done = Promise.promise();
    AtomicInteger running = new AtomicInteger(CONCURRENT);
    for (int i = 0; i < CONCURRENT; i++) {
      vertx.runOnContext(v -> nextConnection(client, frame, started, ok, firstError, running, done));
    }
    done.future().toCompletionStage().toCompletableFuture().get(120, TimeUnit.SECONDS);

    assertThat(firstError.get()).isNull();
    assertThat(ok.get()).isEqualTo(CONNECTIONS);
    await().untilAsserted(() -> {
      assertThat(metric(runtime, "portshare_rpc_transactions_total")).isEqualTo(CONNECTIONS);
      assertThat(metric(runtime, "portshare_connections_accepted_total")).isEqualTo(CONNECTIONS);
      assertThat(metric(runtime, "portshare_rpc_connection_errors_total", "kind", "other")).isZero();
    });
    String scrape = runtime.registry().scrape();
    assertThat(scrape).containsPattern("portshare_info\\{[^}]*mode=\"" + mode + "\"");
    // Both loops took a share of the connections.
    assertThat(scrape).containsPattern("portshare_rpc_transactions_total\\{loop=\"0\"[^}]*\\} [1-9]");
    assertThat(scrape).containsPattern("portshare_rpc_transactions_total\\{loop=\"1\"[^}]*\\} [1-9]");
    client.close();
  }

  private static void nextConnection(RpcClient client, Buffer frame, AtomicInteger started, AtomicInteger ok,
      AtomicReference<Throwable> firstError, AtomicInteger running, Promise<Void> done) {
    if (started.getAndIncrement() >= CONNECTIONS || firstError.get() != null) {
      if (running.decrementAndGet() == 0) {
        done.tryComplete();
      }
      return;
    }
    client.connect(runtimePort, "127.0.0.1")
        .compose(conn -> conn.sendFrame(frame).eventually(conn::close))
        .onComplete(ar -> {
          if (ar.succeeded()) {
            ok.incrementAndGet();
          } else {
            firstError.compareAndSet(null, ar.cause());
          }
          nextConnection(client, frame, started, ok, firstError, running, done);
        });
  }

  private static volatile int runtimePort;

  @org.junit.jupiter.api.BeforeEach
  void noPortYet() {
    runtimePort = -1;
  }

  @Test
  void drainAnswersEveryFrameAlreadySentThenCloses() throws Exception {
    // One instance: the drain's ticks of the idle and the half-way connection run on one loop, so
    // the idle one's close shows the half-way one's drain has begun too.
    start("reuseport", 1);
    runtimePort = runtime.port();
    int frames = 2000;
    ByteArrayOutputStream burst = new ByteArrayOutputStream();
    for (int i = 0; i < frames; i++) {
      burst.write(RpcWire.frame(RpcWire.payload(64 + i % 960, i)));
    }
    try (RpcWire busy = new RpcWire(runtime.port());
        RpcWire halfway = new RpcWire(runtime.port());
        RpcWire idle = new RpcWire(runtime.port())) {
      // A connection still in the kernel's accept queue when the listener closes is reset by the
      // kernel; the drain is about connections the server holds.
      await().untilAsserted(() -> assertThat(metric(runtime, "portshare_connections_accepted_total")).isEqualTo(3.0));
      byte[] last = RpcWire.frame(RpcWire.payload(1000, 77));
      halfway.write(Arrays.copyOf(last, 500));
      busy.write(burst.toByteArray());

      // SIGTERM does exactly this.
      CompletableFuture<Void> stopped = CompletableFuture.runAsync(() -> runtime.stop(Duration.ofSeconds(20)));

      // The drain has reached the connections once it closes the idle one: quiet past its ticks,
      // at a frame boundary. The half-way one is as quiet since, with half a frame read.
      assertThat(idle.closedByPeer()).as("the idle connection, closed by the drain").isTrue();

      // The rest of a frame cut in two arrives after the drain began: it is still answered.
      halfway.write(Arrays.copyOfRange(last, 500, last.length));
      assertThat(halfway.readFrame()).isEqualTo(RpcWire.payload(1000, 77));
      assertThat(halfway.closedByPeer()).isTrue();

      for (int i = 0; i < frames; i++) {
        assertThat(busy.readFrame()).as("answer %d", i).isEqualTo(RpcWire.payload(64 + i % 960, i));
      }
      assertThat(busy.closedByPeer()).isTrue();
      stopped.get(30, TimeUnit.SECONDS);
    }
    // Closed by the drain itself, long before the 20 s timeout would have cut them.
    assertThat(metric(runtime, "portshare_rpc_drain_closed_total")).isEqualTo(3.0);
    runtime = null;
  }

  private static double metric(ServiceRuntime runtime, String name, String... labelPairs) {
    return PrometheusText.parse(runtime.registry().scrape()).sum(name, labelPairs);
  }
}
