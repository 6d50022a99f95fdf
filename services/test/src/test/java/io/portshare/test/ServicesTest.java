package io.portshare.test;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Vertx;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

@ExtendWith(VertxExtension.class)
class ServicesTest {

  @RegisterExtension
  final Services services = new Services();
  @TempDir
  Path dir;

  @Test
  void aServiceStartedOnTheRuntimeAnswersAndIsReady(Vertx vertx, VertxTestContext test) {
    RunningService greeter = services.start(new GreeterService(), "--port", "0", "--admin-port", "0",
        "--host", "127.0.0.1", "--greeting", "hi");
    WebClient client = WebClient.create(vertx);
    client.get(greeter.port(), "127.0.0.1", "/hello").send()
        .compose(hello -> {
          test.verify(() -> assertThat(hello.bodyAsString()).isEqualTo("hi, world"));
          return client.get(greeter.adminPort(), "127.0.0.1", "/health/ready").send();
        })
        .onComplete(test.succeeding(ready -> test.verify(() -> {
          assertThat(ready.statusCode()).isEqualTo(200);
          test.completeNow();
        })));
  }

  @Test
  void aVerticleDeployedOnTheTestsVertxHasItsSettingsAndConfig(Vertx vertx, VertxTestContext test)
      throws Exception {
    Path yaml = Files.writeString(dir.resolve("greeter.yaml"), "greeting: hey\nservice:\n  name: vert.x\n");
    services.deploy(vertx, new GreeterService(), "--port", "0", "--host", "127.0.0.1", "--config", yaml.toString())
        .compose(greeter -> {
          test.verify(() -> assertThat(greeter.adminPort()).isEqualTo(-1));
          return WebClient.create(vertx).get(greeter.port(), "127.0.0.1", "/hello").send();
        })
        .onComplete(test.succeeding(hello -> test.verify(() -> {
          assertThat(hello.bodyAsString()).isEqualTo("hey, vert.x");
          test.completeNow();
        })));
  }

  @Test
  void aServiceVerticleDeployedWithoutTheRuntimeFailsWithOneLineSayingHow(Vertx vertx, VertxTestContext test) {
    vertx.deployVerticle(new GreeterService.GreeterVerticle()).onComplete(test.failing(e -> test.verify(() -> {
      assertThat(e).isInstanceOf(IllegalStateException.class);
      assertThat(e.getMessage()).contains("is a ServiceVerticle").contains("Services.deploy");
      test.completeNow();
    })));
  }
}
