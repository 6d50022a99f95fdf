package io.portshare.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.portshare.kit.AdminPort;
import io.portshare.kit.PrometheusText;
import io.portshare.kit.RpcWire;
import io.portshare.runtime.LatencyHistogram;
import io.portshare.runtime.Runtimes;
import io.portshare.runtime.impl.ServiceRuntime;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Every frame answered is timed into portshare_rpc_frame_seconds, seen from outside as Prometheus
 * sees it: one frame per connection, a hundred pipelined in one write, a frame split across writes.
 */
class FrameLatencyTest {

  @RegisterExtension
  final Runtimes runtimes = new Runtimes();

  /** The engine's flags; a subclass runs every test on the other engine. */
  List<String> engineFlags() {
    return List.of();
  }

  @Test
  void eachFrameCountsOnceInCumulativeBuckets() throws IOException {
    List<String> flags = new ArrayList<>(List.of("--port", "0", "--admin-port", "0", "--host", "127.0.0.1",
        "--instances", "1", "--warmup", "0"));
    flags.addAll(engineFlags());
    ServiceRuntime rt = runtimes.start(new RpcService(), flags.toArray(String[]::new));
    int frames = 0;
    for (int i = 0; i < 10; i++, frames++) {
      try (RpcWire c = new RpcWire(rt.port())) {
        c.write(RpcWire.frame(64, i));
        c.expect(RpcWire.frame(64, i));
      }
    }
    try (RpcWire c = new RpcWire(rt.port())) {
      ByteArrayOutputStream pipelined = new ByteArrayOutputStream();
      for (int i = 0; i < 100; i++) {
        pipelined.write(RpcWire.frame(1024, i));
      }
      c.write(pipelined.toByteArray());
      for (int i = 0; i < 100; i++, frames++) {
        c.expect(RpcWire.frame(1024, i));
      }
      byte[] split = RpcWire.frame(5000, 7);
      c.write(Arrays.copyOfRange(split, 0, 3));
      c.write(Arrays.copyOfRange(split, 3, split.length));
      c.expect(split);
      frames++;
    }
    int expected = frames;
    AdminPort admin = new AdminPort(rt.adminPort());

    // A frame is recorded once the flush that wrote its echo returns, a moment after the client may read it.
    await().atMost(Duration.ofSeconds(10)).until(() -> admin.metrics()
        .value("portshare_rpc_frame_seconds_count", "loop", "0").orElse(0.0) == expected);
    PrometheusText.Histogram h = admin.metrics().histogram("portshare_rpc_frame_seconds", "service", "rpc", "loop", "0");
    assertThat(h.bounds()).hasSize(LatencyHistogram.BOUNDS_SECONDS.length + 1);
    assertThat(h.buckets()[h.buckets().length - 1]).isEqualTo(expected);
    assertThat(h.sum()).as("seconds, not nanoseconds").isPositive().isLessThan(expected * 5.0);
    assertThat(admin.metrics().value("portshare_rpc_transactions_total", "loop", "0")).contains((double) expected);
  }
}
