package io.portshare.statics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.portshare.kit.HttpWire;
import io.portshare.kit.PrometheusText;
import io.portshare.kit.ServiceProcess;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The service as its own process: the bundled demo site, bad flags, and 10,000 idle connections. */
class StaticProcessTest {

  private static final Duration START = Duration.ofSeconds(60);
  private static final int IDLE_CONNECTIONS = 10_000;
  private static final int CLIENT_THREADS = 4;

  @Test
  void withoutRootItServesTheBundledDemoSite() throws Exception {
    try (ServiceProcess p = ServiceProcess.launch(Map.of(), "--service", "static", "--port", "0", "--admin-port", "0",
        "--instances", "1", "--host", "127.0.0.1")) {
      p.awaitReady(START);
      HttpWire.Response index = HttpWire.get(p.port(), "/");
      assertThat(index.status()).isEqualTo(200);
      assertThat(index.body().length).isBetween(DemoSiteTest.INDEX_MIN_BYTES, DemoSiteTest.INDEX_MAX_BYTES);
      assertThat(index.text()).contains("portshare static-server");
      HttpWire.Response gz = HttpWire.get(p.port(), "/index.html", "Accept-Encoding: gzip\r\n");
      assertThat(gz.header("content-encoding")).isEqualTo("gzip");
      try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(gz.body()))) {
        assertThat(in.readAllBytes()).isEqualTo(index.body());
      }
      assertThat(HttpWire.get(p.port(), "/hello.txt").status()).isEqualTo(200);
      assertThat(HttpWire.get(p.port(), "/docs/").text()).contains("Documentation");
    }
  }

  @Test
  void aRootThatIsNotADirectoryExitsTwoWithOneLine(@TempDir Path tmp) throws Exception {
    Path file = Files.writeString(tmp.resolve("f.txt"), "x");
    try (ServiceProcess p = ServiceProcess.launch(Map.of(), "--service", "static", "--root", file.toString())) {
      assertThat(p.awaitExit(START)).isEqualTo(2);
      assertThat(p.output().lines().filter(l -> l.startsWith("portshare:")).toList()).containsExactly("portshare: invalid value for root: \"" + file
          + "\" (from --root); expected an existing directory");
    }
    try (ServiceProcess p = ServiceProcess.launch(Map.of("PORTSHARE_MEMORY_MAX", "lots"), "--service", "static")) {
      assertThat(p.awaitExit(START)).isEqualTo(2);
      assertThat(p.output()).contains("invalid value for memory-max");
    }
  }

  @Test
  void tenThousandIdleKeepAliveConnectionsAreHeld(@TempDir Path root) throws Exception {
    Files.writeString(root.resolve("hello.txt"), "hello\n");
    // Its own process: 10,000 client and 10,000 server sockets would not fit in one 20,000-fd JVM.
    try (ServiceProcess p = ServiceProcess.launch(Map.of(), "--service", "static", "--port", "0", "--admin-port", "0",
        "--instances", "2", "--host", "127.0.0.1", "--root", root.toString(), "--header-timeout", "1s",
        "--idle-timeout", "300s")) {
      p.awaitReady(START);
      List<HttpWire> conns = Collections.synchronizedList(new ArrayList<>(IDLE_CONNECTIONS));
      ExecutorService clients = Executors.newFixedThreadPool(CLIENT_THREADS);
      try {
        // Open them all and leave them idle: not one byte sent yet.
        inParallel(clients, i -> conns.add(new HttpWire(p.port())));
        await().atMost(Duration.ofSeconds(120)).until(() -> scrape(p.adminPort()).sum("portshare_connections_open"),
            open -> open >= IDLE_CONNECTIONS);
        // Idle past the header timeout; then every one of them still answers, and stays open.
        Thread.sleep(2000);
        List<HttpWire> all = List.copyOf(conns);
        inParallel(clients, i -> {
          HttpWire c = all.get(i);
          c.send("GET /hello.txt HTTP/1.1\r\nHost: t\r\n\r\n");
          assertThat(c.read(false).text()).isEqualTo("hello\n");
        });
        PrometheusText metrics = scrape(p.adminPort());
        assertThat(metrics.sum("portshare_static_requests_total")).isEqualTo(IDLE_CONNECTIONS);
        assertThat(metrics.sum("portshare_connections_open")).isGreaterThanOrEqualTo(IDLE_CONNECTIONS);
        assertThat(metrics.sum("portshare_static_header_timeouts_total")).isZero();
      } finally {
        clients.shutdownNow();
        for (HttpWire c : conns) {
          c.close();
        }
      }
      assertThat(p.isAlive()).isTrue();
    }
  }

  interface ClientStep {
    void run(int index) throws Exception;
  }

  /** Runs step(0..IDLE_CONNECTIONS-1) on a few client threads; the first failure fails the test. */
  private static void inParallel(ExecutorService pool, ClientStep step) throws Exception {
    List<Future<?>> parts = new ArrayList<>();
    int per = IDLE_CONNECTIONS / CLIENT_THREADS;
    for (int t = 0; t < CLIENT_THREADS; t++) {
      int from = t * per;
      int to = t == CLIENT_THREADS - 1 ? IDLE_CONNECTIONS : from + per;
      parts.add(pool.submit(() -> {
        for (int i = from; i < to; i++) {
          step.run(i);
        }
        return null;
      }));
    }
    for (Future<?> f : parts) {
      f.get();
    }
  }

  private static PrometheusText scrape(int adminPort) throws IOException, InterruptedException {
    return PrometheusText.parse(HttpClient.newHttpClient().send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + adminPort + "/metrics")).build(),
        HttpResponse.BodyHandlers.ofString()).body());
  }
}
