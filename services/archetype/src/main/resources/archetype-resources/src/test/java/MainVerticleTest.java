package ${package};

import static org.assertj.core.api.Assertions.assertThat;

import io.portshare.test.RunningService;
import io.portshare.test.Services;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

@ExtendWith(VertxExtension.class)
class MainVerticleTest {

  /** Stops every service a test starts, after the test. */
  @RegisterExtension
  final Services services = new Services();
  @TempDir
  Path dir;

  /** On the runtime, as java -jar runs it: its route, and its readiness check on the admin port. */
  @Test
  void helloAnswersAndTheReadinessCheckIsOnTheAdminPort(Vertx vertx, VertxTestContext test) {
    RunningService service = services.start(new MainService(), "--port", "0", "--admin-port", "0",
        "--host", "127.0.0.1", "--instances", "2", "--greeting", "hi");
    WebClient client = WebClient.create(vertx);
    client.get(service.port(), "127.0.0.1", "/hello").send()
        .compose(hello -> {
          test.verify(() -> {
            assertThat(hello.statusCode()).isEqualTo(200);
            assertThat(hello.bodyAsString()).isEqualTo("hi, world\n");
          });
          return client.get(service.adminPort(), "127.0.0.1", "/health/ready").send();
        })
        .onComplete(test.succeeding(ready -> test.verify(() -> {
          assertThat(ready.statusCode()).isEqualTo(200);
          assertThat(ready.bodyAsString()).contains("\"" + MainVerticle.READINESS_CHECK + "\"");
          test.completeNow();
        })));
  }

  /** The webroot's index page, by StaticFiles, with its validators; a path it has not goes on to a 404. */
  @Test
  void theRootIsTheWebrootsIndexPage(Vertx vertx, VertxTestContext test) {
    RunningService service = services.start(new MainService(), "--port", "0", "--admin-port", "0",
        "--host", "127.0.0.1", "--instances", "1");
    WebClient client = WebClient.create(vertx);
    client.get(service.port(), "127.0.0.1", "/").send()
        .compose(index -> {
          test.verify(() -> {
            assertThat(index.statusCode()).isEqualTo(200);
            assertThat(index.getHeader("content-type")).startsWith("text/html");
            assertThat(index.getHeader("etag")).isNotBlank();
            assertThat(index.bodyAsString()).contains("<title>${artifactId}</title>");
          });
          return client.get(service.port(), "127.0.0.1", "/no-such-file.txt").send();
        })
        .onComplete(test.succeeding(missing -> test.verify(() -> {
          assertThat(missing.statusCode()).isEqualTo(404);
          test.completeNow();
        })));
  }

  /** A downstream that refuses connections makes the service not ready (503). */
  @Test
  void aDownstreamThatIsDownMakesItNotReady(Vertx vertx, VertxTestContext test) throws Exception {
    int closedPort;
    try (ServerSocket s = new ServerSocket(0)) {
      closedPort = s.getLocalPort();
    }
    Path yaml = Files.writeString(dir.resolve("down.yaml"),
        "service:\n  downstream:\n    host: 127.0.0.1\n    port: " + closedPort + "\n");
    RunningService service = services.start(new MainService(), "--port", "0", "--admin-port", "0",
        "--host", "127.0.0.1", "--instances", "1", "--config", yaml.toString());
    WebClient.create(vertx).get(service.adminPort(), "127.0.0.1", "/health/ready").send()
        .onComplete(test.succeeding(ready -> test.verify(() -> {
          assertThat(ready.statusCode()).isEqualTo(503);
          assertThat(ready.bodyAsString()).contains("\"" + MainVerticle.READINESS_CHECK + "\"");
          test.completeNow();
        })));
  }

  /** Deployed on this test's own Vertx: config() holds the config file's service: section. */
  @Test
  void configHoldsTheConfigFilesServiceSection(Vertx vertx, VertxTestContext test) throws Exception {
    Path yaml = Files.writeString(dir.resolve("app.yaml"), "greeting: hey\nservice:\n  audience: vert.x\n");
    WebClient client = WebClient.create(vertx);
    services.deploy(vertx, new MainService(), "--port", "0", "--host", "127.0.0.1", "--config", yaml.toString())
        .compose(service -> client.get(service.port(), "127.0.0.1", "/hello").send()
            .compose(hello -> {
              test.verify(() -> assertThat(hello.bodyAsString()).isEqualTo("hey, vert.x\n"));
              return client.get(service.port(), "127.0.0.1", "/config").send();
            }))
        .onComplete(test.succeeding(config -> test.verify(() -> {
          assertThat(config.bodyAsJsonObject()).isEqualTo(new JsonObject().put("audience", "vert.x"));
          test.completeNow();
        })));
  }
}
