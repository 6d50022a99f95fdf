package io.portshare.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.portshare.kit.PrometheusText;
import io.portshare.rpc.client.Frames;
import io.portshare.runtime.Runtimes;
import io.portshare.runtime.impl.ServiceRuntime;
import java.io.DataInputStream;
import java.io.IOException;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The RPC warm-up exchange is answered on every instance and none of it counts as transactions. */
class EchoWarmUpTest {

  @RegisterExtension
  final Runtimes runtimes = new Runtimes();

  /** The flags that choose the engine under test: none, the default (own). {@code ...OnVertxTest} overrides it. */
  List<String> engineFlags() {
    return List.of();
  }

  @Test
  void warmUpFramesAreAnsweredOnEveryInstanceAndStayOutOfTheTransactionCount() throws IOException {
    List<String> flags = new ArrayList<>(List.of("--port", "0", "--admin-port", "0", "--host", "127.0.0.1",
        "--instances", "2", "--warmup", "2s"));
    flags.addAll(engineFlags());
    ServiceRuntime runtime = runtimes.start(new RpcService(), flags.toArray(String[]::new));
    PrometheusText metrics = PrometheusText.parse(runtime.registry().scrape());

    assertThat(metrics.value("portshare_warmup_exchanges", "outcome", "answered").orElseThrow()).isGreaterThan(0);
    assertThat(metrics.value("portshare_warmup_exchanges", "outcome", "failed").orElseThrow()).isZero();
    assertThat(metrics.value("portshare_warmup_connections_total", "loop", "0").orElseThrow()).isGreaterThan(0);
    assertThat(metrics.value("portshare_warmup_connections_total", "loop", "1").orElseThrow()).isGreaterThan(0);
    assertThat(metrics.sum("portshare_rpc_transactions_total")).isZero();
    assertThat(metrics.sum("portshare_rpc_received_bytes_total")).isZero();
    assertThat(metrics.sum("portshare_connections_accepted_total")).isZero();
    assertThat(metrics.sum("portshare_rpc_frame_seconds_count")).isZero();

    byte[] frame = Frames.encodePattern(64).getBytes();
    try (Socket s = new Socket("127.0.0.1", runtime.port())) {
      s.getOutputStream().write(frame);
      byte[] answer = new byte[frame.length];
      new DataInputStream(s.getInputStream()).readFully(answer);
      assertThat(answer).isEqualTo(frame);
    }
    PrometheusText after = PrometheusText.parse(runtime.registry().scrape());
    assertThat(after.sum("portshare_rpc_transactions_total")).isEqualTo(1);
    // Timed once the flush of its echo returns, which may be a moment after the client read it.
    await().atMost(Duration.ofSeconds(10)).until(() ->
        PrometheusText.parse(runtime.registry().scrape()).sum("portshare_rpc_frame_seconds_count") == 1);
  }
}
