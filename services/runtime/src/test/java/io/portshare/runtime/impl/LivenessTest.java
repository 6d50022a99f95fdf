package io.portshare.runtime.impl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.portshare.examples.hello.HelloService;
import io.portshare.runtime.Runtimes;
import io.portshare.runtime.ServiceVerticle;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.VertxExtension;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/** /health/live follows the service's event loops: a loop that stops running turns it down. */
@ExtendWith(VertxExtension.class)
class LivenessTest {

  @RegisterExtension
  final Runtimes runtimes = new Runtimes();

  @Test
  void aBlockedServiceLoopTurnsLivenessDownAndBackUpWhenItRunsAgain(Vertx vertx) throws Exception {
    ServiceRuntime rt = runtimes.start(new HelloService(), "--port", "0", "--admin-port", "0",
        "--instances", "2", "--mode", "reuseport", "--liveness-timeout", "500ms");
    CountDownLatch release = new CountDownLatch(1);
    try {
      assertThat(live(vertx, rt).statusCode()).isEqualTo(200);
      // Instance 1's loop blocks, as a handler that waits on I/O or loops forever would.
      ServiceVerticle blocked = rt.verticles().stream().filter(v -> VerticleAccess.context(v).instance() == 1).findFirst().orElseThrow();
      VerticleAccess.vertxContext(blocked).runOnContext(x -> {
        try {
          release.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      });

      await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
        HttpResponse<Buffer> res = live(vertx, rt);
        assertThat(res.statusCode()).isEqualTo(503);
        assertThat(new JsonObject(res.bodyAsString()).getString("outcome")).isEqualTo("DOWN");
        assertThat(res.bodyAsString()).contains("hello instance 1 last ran").doesNotContain("instance 0");
      });

      release.countDown();
      await().atMost(Duration.ofSeconds(10)).until(() -> live(vertx, rt).statusCode() == 200);
    } finally {
      release.countDown();
    }
  }

  private static HttpResponse<Buffer> live(Vertx vertx, ServiceRuntime rt) throws Exception {
    return WebClient.create(vertx).get(rt.adminPort(), "127.0.0.1", "/health/live").send()
        .toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);
  }
}
