package io.portshare.statics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.portshare.kit.AdminPort;
import io.portshare.kit.HttpWire;
import io.portshare.kit.PrometheusText;
import io.portshare.runtime.LatencyHistogram;
import io.portshare.runtime.Runtimes;
import io.portshare.runtime.impl.ServiceRuntime;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every answer is timed into portshare_static_answer_seconds, seen from outside as Prometheus sees
 * it: answers from memory, by sendfile or copied from the file, refusals of names not there, on new
 * and on pipelined keep-alive connections.
 */
class AnswerLatencyTest {

  static final String HISTOGRAM = "portshare_static_answer_seconds";

  @TempDir
  Path root;
  @RegisterExtension
  final Runtimes runtimes = new Runtimes();

  /**
   * By sendfile, copied from the file, on io_uring (splice; or its epoll fallback where the kernel
   * refuses it), and on the Vert.x engine.
   */
  @ParameterizedTest(name = "flags [{0}]")
  @ValueSource(strings = {"", "--no-sendfile", "--transport=io_uring", "--engine=vertx"})
  void eachAnswerCountsOnceInCumulativeBuckets(String flag) throws IOException {
    Files.writeString(root.resolve("small.txt"), "small\n");
    Files.write(root.resolve("big.bin"), new byte[256 * 1024]);
    ServiceRuntime rt = runtimes.start(new StaticService(), flag.isEmpty()
        ? TestServers.flags(root, "--warmup", "0", "--memory-max", "1KiB")
        : TestServers.flags(root, "--warmup", "0", "--memory-max", "1KiB", flag));
    int answers = 0;
    for (int i = 0; i < 10; i++, answers++) {
      assertThat(HttpWire.get(rt.port(), "/small.txt").status()).isEqualTo(200);
    }
    for (int i = 0; i < 5; i++, answers++) {
      assertThat(HttpWire.get(rt.port(), "/big.bin").body()).hasSize(256 * 1024);
    }
    for (int i = 0; i < 3; i++, answers++) {
      assertThat(HttpWire.get(rt.port(), "/not-there").status()).isEqualTo(404);
    }
    try (HttpWire c = new HttpWire(rt.port())) {
      c.send("GET /small.txt HTTP/1.1\r\nHost: t\r\n\r\n".repeat(6) + "GET /big.bin HTTP/1.1\r\nHost: t\r\n\r\n");
      for (int i = 0; i < 7; i++, answers++) {
        assertThat(c.read(false).status()).isEqualTo(200);
      }
    }
    int expected = answers;
    AdminPort admin = new AdminPort(rt.adminPort());

    // An answer is recorded once its last byte has been written, a moment after the client may read it.
    await().atMost(Duration.ofSeconds(10)).until(() -> admin.metrics().value(HISTOGRAM + "_count", "loop", "0")
        .orElse(0.0) == expected);
    PrometheusText.Histogram h = admin.metrics().histogram(HISTOGRAM, "service", "static", "loop", "0");
    assertThat(h.bounds()).hasSize(LatencyHistogram.BOUNDS_SECONDS.length + 1);
    assertThat(h.buckets()[h.buckets().length - 1]).isEqualTo(expected);
    assertThat(h.sum()).as("seconds, not nanoseconds").isPositive().isLessThan(expected * 5.0);
  }
}
