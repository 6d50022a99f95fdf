package io.portshare.runtime.net;

import static org.assertj.core.api.Assertions.assertThat;

import io.portshare.kit.Ci;
import io.portshare.kit.PrometheusText;
import io.portshare.kit.ServiceProcess;
import io.portshare.runtime.IoUringOrFallback;
import io.vertx.core.transport.Transport;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code --transport io_uring} where the kernel refuses io_uring: the service starts on epoll with
 * one WARN line, and its banner and /metrics say epoll. The refusal is real (a seccomp filter in
 * the service's own process, {@link IoUringRefusedLauncher}), not a flag that pretends.
 */
class IoUringFallbackTest {

  private static final Duration START = Duration.ofSeconds(60);
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @Test
  void refusedIoUringRunsOnEpollWithOneWarning() throws Exception {
    Ci.require(Transport.EPOLL.available(), "Linux with native epoll");
    for (String mode : List.of("reuseport", "pinned")) {
      try (ServiceProcess p = ServiceProcess.launchMain(IoUringRefusedLauncher.class.getName(), Map.of(),
          "--service", "hello", "--port", "0", "--admin-port", "0", "--instances", "2", "--mode", mode,
          "--transport", "io_uring")) {
        p.awaitReady(START);

        assertThat(get(p.port(), "/")).startsWith("hello from loop ");
        List<String> warnings = p.output().lines().filter(l -> l.contains("WARN")).toList();
        assertThat(warnings).singleElement().satisfies(w -> assertThat(w)
            .contains("transport io_uring is refused here", "Operation not permitted", "using epoll"));
        assertThat(p.output()).contains("transport=epoll");
        PrometheusText metrics = PrometheusText.parse(get(p.adminPort(), "/metrics"));
        assertThat(metrics.value("portshare_info", "transport", "epoll", "mode", mode)).hasValue(1.0);
      }
    }
  }

  /** Without the filter: io_uring where this machine allows it, else the same fallback as above. */
  @Test
  void withoutTheFilterTheSameCommandRunsOnIoUringWhereTheKernelAllowsIt() throws Exception {
    try (ServiceProcess p = ServiceProcess.launch(Map.of(), "--service", "hello", "--port", "0",
        "--admin-port", "0", "--instances", "2", "--transport", "io_uring")) {
      p.awaitReady(START);

      assertThat(get(p.port(), "/")).startsWith("hello from loop ");
      assertThat(p.output()).contains("transport=" + IoUringOrFallback.transport());
      IoUringOrFallback.checkWarnings(p.output().lines().toList());
      if (IoUringOrFallback.allowed()) {
        assertThat(p.output()).doesNotContain("WARN");
      }
      PrometheusText metrics = PrometheusText.parse(get(p.adminPort(), "/metrics"));
      assertThat(metrics.value("portshare_info", "transport", IoUringOrFallback.transport())).hasValue(1.0);
    }
  }

  private String get(int port, String path) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
        .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString()).body();
  }
}
