package io.portshare.runtime.admin;

import static org.assertj.core.api.Assertions.assertThat;

import io.portshare.examples.hello.HelloService;
import io.portshare.kit.PrometheusText;
import io.portshare.runtime.Runtimes;
import io.portshare.runtime.impl.ServiceRuntime;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.VertxExtension;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

@ExtendWith(VertxExtension.class)
class AdminServerTest {

  @RegisterExtension
  static final Runtimes runtimes = new Runtimes();
  private static ServiceRuntime runtime;

  @BeforeAll
  static void start() {
    runtime = runtimes.start(new HelloService(), "--port", "0", "--admin-port", "0", "--instances", "2",
        "--mode", "shared");
  }

  private static HttpResponse<Buffer> get(Vertx vertx, String path) throws Exception {
    return WebClient.create(vertx).get(runtime.adminPort(), "127.0.0.1", path).send()
        .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  @Test
  void liveAndReadyAnswerUp(Vertx vertx) throws Exception {
    HttpResponse<Buffer> live = get(vertx, "/health/live");
    HttpResponse<Buffer> ready = get(vertx, "/health/ready");

    assertThat(live.statusCode()).isEqualTo(200);
    assertThat(new JsonObject(live.bodyAsString()).getString("outcome")).isEqualTo("UP");
    assertThat(ready.statusCode()).isEqualTo(200);
    assertThat(new JsonObject(ready.bodyAsString()).getString("outcome")).isEqualTo("UP");
  }

  @Test
  void metricsParseAsPrometheusTextAndNameWhatRuns(Vertx vertx) throws Exception {
    HttpResponse<Buffer> res = get(vertx, "/metrics");

    assertThat(res.statusCode()).isEqualTo(200);
    assertThat(res.getHeader("Content-Type")).startsWith("text/plain");
    PrometheusText metrics = PrometheusText.parse(res.bodyAsString());
    assertThat(metrics.value("portshare_info", "service", "hello", "mode", "shared", "instances", "2",
        "transport", runtime.transport())).contains(1.0);
    assertThat(metrics.named("portshare_connections_open")).hasSize(1);
    assertThat(metrics.named("jvm_memory_used_bytes")).isNotEmpty();
    assertThat(metrics.named("process_files_open_files")).isNotEmpty();
  }

  @Test
  void unknownAdminPathIs404(Vertx vertx) throws Exception {
    assertThat(get(vertx, "/nope").statusCode()).isEqualTo(404);
  }
}
