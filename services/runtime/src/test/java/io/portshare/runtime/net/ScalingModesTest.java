package io.portshare.runtime.net;

import static org.assertj.core.api.Assertions.assertThat;

import io.portshare.examples.hello.HelloService;
import io.portshare.kit.PrometheusText;
import io.portshare.runtime.IoUringOrFallback;
import io.portshare.runtime.Runtimes;
import io.portshare.runtime.impl.ServiceRuntime;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.junit5.VertxExtension;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Each mode does what docs/modes.md says: sockets on the port, and connections spread over loops. */
@ExtendWith(VertxExtension.class)
class ScalingModesTest {

  @RegisterExtension
  final Runtimes runtimes = new Runtimes();

  @ParameterizedTest(name = "{0} with 2 instances listens on {1} socket(s)")
  @CsvSource({"reuseport, 2", "shared, 1"})
  void listeningSocketsPerMode(String mode, int sockets, Vertx client) throws Exception {
    ServiceRuntime runtime = runtimes.start(new HelloService(), "--port", "0", "--admin-port", "0", "--instances", "2",
        "--mode", mode);

    assertThat(ReuseportSteering.listeningOn(runtime.port())).isEqualTo(sockets);
    assertThat(runtime.mode().label()).isEqualTo(mode);
  }

  @ParameterizedTest(name = "{0} on {1}: many client connections land on more than one event loop")
  @CsvSource({"reuseport, epoll", "shared, epoll", "reuseport, io_uring", "shared, io_uring", "shared, nio"})
  void connectionsSpreadOverLoops(String mode, String transport, Vertx client) throws Exception {
    // Where the kernel refuses io_uring, the io_uring rows check the fallback, then run on it.
    ServiceRuntime runtime = transport.equals("io_uring")
        ? IoUringOrFallback.start(runtimes, new HelloService(), "--port", "0", "--admin-port", "0", "--instances", "2",
            "--mode", mode)
        : runtimes.start(new HelloService(), "--port", "0", "--admin-port", "0", "--instances", "2",
            "--mode", mode, "--transport", transport);
    String runsOn = transport.equals("io_uring") ? IoUringOrFallback.transport() : transport;
    assertThat(runtime.transport()).isEqualTo(runsOn);
    // A new connection per request, from many source ports: the kernel's reuseport hash and
    // Vert.x's round-robin both need several connections to show their spread.
    HttpClient http = client.createHttpClient(new HttpClientOptions().setKeepAlive(false),
        new PoolOptions().setHttp1MaxSize(16));
    List<Future<Buffer>> answers = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      answers.add(http.request(HttpMethod.GET, runtime.port(), "127.0.0.1", "/")
          .compose(req -> req.send().compose(HttpClientResponse::body)));
    }
    List<String> bodies = Future.all(answers).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS)
        .<Buffer>list().stream().map(Buffer::toString).toList();

    assertThat(bodies).hasSize(200).allMatch(b -> b.startsWith("hello from loop "));
    assertThat(bodies).anyMatch(b -> b.contains("loop 0")).anyMatch(b -> b.contains("loop 1"));

    PrometheusText metrics = PrometheusText.parse(runtime.registry().scrape());
    assertThat(metrics.value("portshare_info", "transport", runsOn, "mode", mode)).hasValue(1.0);
    double loop0 = metrics.value("portshare_connections_accepted_total", "service", "hello", "loop", "0").orElse(0.0);
    double loop1 = metrics.value("portshare_connections_accepted_total", "service", "hello", "loop", "1").orElse(0.0);
    assertThat(loop0 + loop1).isEqualTo(200.0);
    assertThat(loop0).isPositive();
    assertThat(loop1).isPositive();
  }

  @Test
  void reuseportInstancesShareOneExplicitPort() throws Exception {
    int port;
    try (ServerSocket probe = new ServerSocket(0)) {
      port = probe.getLocalPort();
    }
    ServiceRuntime runtime = runtimes.start(new HelloService(), "--port", Integer.toString(port), "--admin-port", "0",
        "--instances", "3", "--mode", "reuseport");

    assertThat(runtime.port()).isEqualTo(port);
    assertThat(ReuseportSteering.listeningOn(port)).isEqualTo(3);
  }
}
