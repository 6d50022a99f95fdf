package io.portshare.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.portshare.examples.hello.HelloService;
import io.portshare.kit.PrometheusText;
import io.portshare.runtime.impl.ServiceRuntime;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetSocket;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.VertxExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code --vertx-metrics}: Vert.x's server meters on {@code /metrics}, counted across every instance's
 * Vert.x, with response times as histograms; without the flag, not one of them.
 */
@ExtendWith(VertxExtension.class)
class VertxServerMetersTest {

  private static final int REQUESTS = 7;
  private static final Duration WAIT = Duration.ofSeconds(10);

  @RegisterExtension
  final Runtimes runtimes = new Runtimes();

  @Test
  void onTheHttpServerCountsEveryRequestAndTimesItInBuckets(Vertx vertx) throws Exception {
    ServiceRuntime runtime = runtimes.start(new HelloService(), "--port", "0", "--admin-port", "0",
        "--instances", "2", "--vertx-metrics");

    getHello(vertx, runtime, REQUESTS);

    PrometheusText metrics = scrape(vertx, runtime);
    assertThat(metrics.sum("vertx_http_server_requests_total", "method", "GET", "code", "200"))
        .isEqualTo(REQUESTS);
    assertThat(metrics.sum("vertx_http_server_response_time_seconds_count", "method", "GET", "code", "200"))
        .isEqualTo(REQUESTS);
    assertThat(metrics.sum("vertx_http_server_response_time_seconds_bucket", "le", "+Inf")).isEqualTo(REQUESTS);
    assertThat(metrics.named("vertx_http_server_response_time_seconds_bucket"))
        .as("a histogram with buckets, not a summary").hasSizeGreaterThan(10);
    assertThat(metrics.value("portshare_info", "service", "hello", "vertx_metrics", "on")).contains(1.0);
    // Clients (the scrape's, the warm-up's) and pools are not the service's traffic.
    assertThat(metrics.samples()).noneMatch(s -> s.name().startsWith("vertx_http_client")
        || s.name().startsWith("vertx_pool") || s.name().startsWith("vertx_eventbus"));
  }

  @Test
  void onTheNetServerCountsConnectionsAndBytes(Vertx vertx) throws Exception {
    ServiceRuntime runtime = runtimes.start(new PongService(), "--port", "0", "--admin-port", "0",
        "--instances", "2", "--vertx-metrics");
    NetClient client = vertx.createNetClient();
    for (int i = 0; i < REQUESTS; i++) {
      Buffer answer = client.connect(runtime.port(), "127.0.0.1").compose(socket -> {
        Buffer got = Buffer.buffer();
        socket.handler(got::appendBuffer);
        Future<Void> closed = closedFuture(socket);
        socket.write("ping\n");
        return closed.map(got);
      }).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
      assertThat(answer.toString()).isEqualTo("pong\n");
    }

    await().atMost(WAIT).untilAsserted(() -> {
      PrometheusText metrics = scrape(vertx, runtime);
      assertThat(metrics.sum("vertx_net_server_bytes_read_total")).isEqualTo(REQUESTS * 5.0);
      assertThat(metrics.sum("vertx_net_server_bytes_written_total")).isEqualTo(REQUESTS * 5.0);
      assertThat(metrics.sum("vertx_net_server_active_connections")).isZero();
    });
  }

  @Test
  void offByDefaultNoVertxMeterAtAll(Vertx vertx) throws Exception {
    ServiceRuntime runtime = runtimes.start(new HelloService(), "--port", "0", "--admin-port", "0",
        "--instances", "2");

    getHello(vertx, runtime, REQUESTS);

    PrometheusText metrics = scrape(vertx, runtime);
    assertThat(metrics.samples()).noneMatch(s -> s.name().startsWith("vertx_"));
    assertThat(metrics.value("portshare_info", "service", "hello", "vertx_metrics", "off")).contains(1.0);
    assertThat(metrics.named("portshare_connections_accepted_total")).isNotEmpty();
  }

  /** Completes when the server has closed {@code socket}. */
  private static Future<Void> closedFuture(NetSocket socket) {
    Promise<Void> closed = Promise.promise();
    socket.closeHandler(v -> closed.tryComplete());
    return closed.future();
  }

  /** {@code count} GETs of the hello service, one after another, each answered 200. */
  private static void getHello(Vertx vertx, ServiceRuntime runtime, int count) throws Exception {
    WebClient client = WebClient.create(vertx);
    List<Integer> statuses = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      statuses.add(client.get(runtime.port(), "127.0.0.1", "/").send()
          .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS).statusCode());
    }
    assertThat(statuses).containsOnly(200).hasSize(count);
  }

  private static PrometheusText scrape(Vertx vertx, ServiceRuntime runtime) throws Exception {
    HttpResponse<Buffer> res = WebClient.create(vertx).get(runtime.adminPort(), "127.0.0.1", "/metrics").send()
        .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    assertThat(res.statusCode()).isEqualTo(200);
    return PrometheusText.parse(res.bodyAsString());
  }

  /** A NetServer service: reads a line, answers {@code pong} and closes. */
  private static final class PongService extends TestService {

    PongService() {
      super("pong", "answers a line with pong and closes");
    }

    @Override
    public ServiceVerticle newVerticle() {
      return new ServiceVerticle() {
        @Override
        public Future<?> start() {
          return service.listen(vertx.createNetServer(service.netServerOptions())
              .connectHandler(socket -> socket.handler(line -> socket.end(Buffer.buffer("pong\n")))));
        }
      };
    }
  }
}
