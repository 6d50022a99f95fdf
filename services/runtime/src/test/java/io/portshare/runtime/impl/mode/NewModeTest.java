package io.portshare.runtime.impl.mode;

import static org.assertj.core.api.Assertions.assertThat;

import io.portshare.examples.hello.HelloService;
import io.portshare.kit.PrometheusText;
import io.portshare.runtime.Runtimes;
import io.portshare.runtime.config.ScalingMode;
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
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A new mode is its class and a registration: {@link PairsMode} runs a service as it says, through --mode. */
@ExtendWith(VertxExtension.class)
class NewModeTest {

  @RegisterExtension
  final Runtimes runtimes = new Runtimes();

  @Test
  void aRegisteredModeIsAValueOfModeAndServesOnItsLayout(Vertx client) throws Exception {
    try (Modes.Registration pairs = Modes.register(new PairsMode())) {
      ServiceRuntime runtime = runtimes.start(new HelloService(), "--port", "0", "--admin-port", "0",
          "--instances", "4", "--mode", "pairs");

      assertThat(runtime.mode()).isEqualTo(PairsMode.NAME);
      assertThat(listeningSockets(runtime.port())).as("one socket per pair of loops").isEqualTo(2);
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
      PrometheusText metrics = PrometheusText.parse(runtime.registry().scrape());
      assertThat(metrics.value("portshare_info", "mode", "pairs")).hasValue(1.0);
      for (int loop = 0; loop < 4; loop++) {
        assertThat(metrics.value("portshare_connections_accepted_total", "service", "hello", "loop",
            Integer.toString(loop))).as("connections of loop " + loop).hasValueSatisfying(n -> assertThat(n).isPositive());
      }
      runtime.stop(Duration.ofSeconds(1));
    }
    assertThat(Arrays.stream(ScalingMode.values()).map(ScalingMode::label))
        .as("--mode's values once the registration is closed").containsExactly("shared", "reuseport", "pinned");
  }

  /** Sockets listening on TCP {@code port}, as ss(8) lists them. */
  private static long listeningSockets(int port) throws Exception {
    Process ss = new ProcessBuilder("ss", "-Hltn", "sport = :" + port).redirectErrorStream(true).start();
    String out = new String(ss.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(ss.waitFor()).as("ss: " + out).isZero();
    return out.lines().filter(l -> !l.isBlank()).count();
  }
}
