package io.portshare.statics;

import static org.assertj.core.api.Assertions.assertThat;

import io.portshare.kit.PrometheusText;
import io.portshare.runtime.Runtimes;
import io.portshare.runtime.Settings;
import io.portshare.runtime.config.RuntimeSettings;
import io.portshare.runtime.impl.ServiceRuntime;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The static warm-up asks for the root's index only, on every instance, and counts no request. */
class StaticWarmUpTest {

  @TempDir
  Path root;
  @RegisterExtension
  final Runtimes runtimes = new Runtimes();

  /** The engine under test; a subclass runs every test on the other. */
  String engine() {
    return "own";
  }

  @Test
  void warmUpRequestsStayOutOfTheRequestCount() throws IOException {
    Files.writeString(root.resolve("index.html"), "<p>home</p>");
    ServiceRuntime runtime = runtimes.start(new StaticService(),
        TestServers.flags(root, "--instances", "2", "--warmup", "2s", "--engine", engine()));
    PrometheusText metrics = PrometheusText.parse(runtime.registry().scrape());

    assertThat(metrics.value("portshare_warmup_exchanges", "outcome", "answered").orElseThrow()).isGreaterThan(0);
    assertThat(metrics.value("portshare_warmup_exchanges", "outcome", "failed").orElseThrow()).isZero();
    assertThat(metrics.value("portshare_warmup_connections_total", "loop", "0").orElseThrow()).isGreaterThan(0);
    assertThat(metrics.value("portshare_warmup_connections_total", "loop", "1").orElseThrow()).isGreaterThan(0);
    assertThat(metrics.sum("portshare_static_requests_total")).isZero();
    assertThat(metrics.sum("portshare_static_bytes_sent_total")).isZero();
    assertThat(metrics.sum("portshare_static_answer_seconds_count")).isZero();

    assertThat(get(runtime.port(), "/")).startsWith("HTTP/1.1 200").endsWith("<p>home</p>");
    assertThat(PrometheusText.parse(runtime.registry().scrape()).sum("portshare_static_requests_total")).isEqualTo(1);
    // Recorded as the last byte is written, before the close the client read up to.
    assertThat(PrometheusText.parse(runtime.registry().scrape()).sum("portshare_static_answer_seconds_count"))
        .isEqualTo(1);
  }

  @Test
  void aRootWithoutAnIndexIsWarmedWithoutReadingItsFiles() throws IOException {
    Files.writeString(root.resolve("private.txt"), "not for the warm-up");
    ServiceRuntime runtime = runtimes.start(new StaticService(),
        TestServers.flags(root, "--warmup", "1s", "--listing", "--engine", engine()));
    PrometheusText metrics = PrometheusText.parse(runtime.registry().scrape());

    // Answered (404 for a name that is not there), and nothing of the root's own was sent.
    assertThat(metrics.value("portshare_warmup_exchanges", "outcome", "answered").orElseThrow()).isGreaterThan(0);
    assertThat(metrics.value("portshare_warmup_exchanges", "outcome", "failed").orElseThrow()).isZero();
    StaticService service = new StaticService();
    Settings settings = Settings.resolve(ServiceRuntime.options(service), List.of("--root", root.toString()), Map.of());
    String request = service.warmUp(settings).orElseThrow().request().toString(StandardCharsets.US_ASCII);
    assertThat(request).startsWith("GET /.portshare-warm-up HTTP/1.1\r\n");
  }

  private static String get(int port, String path) throws IOException {
    try (Socket s = new Socket("127.0.0.1", port)) {
      s.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
          .getBytes(StandardCharsets.US_ASCII));
      return new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
