package io.portshare.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
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
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
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

  /**
   * One frame timed on a clock the test moves, to a known 5 ms: Prometheus must show 0.005 s, in
   * the bucket up to 0.005 and not in the one up to 0.0025. A sum in milliseconds, or an interval
   * that ends before the echo is flushed, fails here, as the test above cannot tell.
   */
  @Test
  void aFrameOnAKnownClockIsTimedInSecondsToTheFlushOfItsEcho() {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    RpcMetrics metrics = new RpcMetrics(registry, "0");
    byte[] frame = RpcWire.frame(64, 1);
    assertThat(echoTakingFiveMillis(metrics, frame)).as("the echo").isEqualTo(frame);

    PrometheusText.Histogram h = PrometheusText.parse(registry.scrape())
        .histogram("portshare_rpc_frame_seconds", "service", "rpc", "loop", "0");
    assertThat(h.count()).isEqualTo(1);
    assertThat(h.sum()).as("seconds").isCloseTo(0.005, within(1e-9));
    int upTo5ms = Arrays.binarySearch(h.bounds(), 0.005);
    assertThat(upTo5ms).as("the bound 0.005").isPositive();
    assertThat(h.buckets()[upTo5ms - 1]).as("frames up to 2.5 ms").isZero();
    assertThat(h.buckets()[upTo5ms]).as("frames up to 5 ms").isEqualTo(1);
  }

  /**
   * The own engine's echo of {@code frame} on a clock that moves 2 ms between the read that
   * completes the frame and the end of that read's turn, and 3 ms in the flush that writes its echo.
   * Returns the bytes written back. {@link FrameLatencyOnVertxTest} times the Vert.x engine's.
   */
  byte[] echoTakingFiveMillis(RpcMetrics metrics, byte[] frame) {
    AtomicLong nanos = new AtomicLong(1_000_000_000L);
    EmbeddedChannel channel = new EmbeddedChannel();
    channel.pipeline().addLast(new ChannelOutboundHandlerAdapter() {
      @Override
      public void flush(ChannelHandlerContext ctx) {
        nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(3));
        ctx.flush();
      }
    });
    channel.pipeline().addLast(new EchoHandler(1024, metrics, nanos::get));
    channel.pipeline().fireChannelRead(Unpooled.wrappedBuffer(frame));
    nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(2));
    channel.pipeline().fireChannelReadComplete();
    ByteBuf all = Unpooled.buffer();
    for (ByteBuf b; (b = channel.readOutbound()) != null; ) {
      all.writeBytes(b);
      b.release();
    }
    byte[] echo = ByteBufUtil.getBytes(all);
    all.release();
    channel.finishAndReleaseAll();
    return echo;
  }
}
