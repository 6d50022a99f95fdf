package io.portshare.bench.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import io.portshare.kit.FreePorts;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The ledger's Router rows start as the ledger starts them, as real processes, and answer the same: the
 * dynamic route (the body and content type nginx's peer answers too, as the ledger's check wants them), and a
 * file of the site byte for byte, through portshare-web's StaticFiles (it sends an ETag) or in the
 * {@code -statichandler} rows vertx-web's StaticHandler (which sends none); the portshare ones on the runtime,
 * the stock ones on Vert.x's own launcher.
 */
class RouterRowsTest {

  @TempDir
  Path dir;

  @ParameterizedTest
  @ValueSource(strings = {"router-portshare", "router-stock", "router-portshare-statichandler", "router-stock-statichandler"})
  void aRouterRowServesItsRouteAndTheSiteByteForByte(String row) throws Exception {
    Path site = Files.createDirectories(dir.resolve("site"));
    byte[] file = new byte[1024];
    new Random(7).nextBytes(file);
    Files.write(site.resolve("1k.bin"), file);
    Files.writeString(site.resolve("index.html"), "<p>index</p>\n");
    Contenders contenders = new Contenders(new Contenders.Sources(
        ProcessHandle.current().info().command().orElse("java"), List.of("-Xmx128m"),
        System.getProperty("java.class.path"), null, null, null, null, null), site,
        Files.createDirectories(dir.resolve("scratch")), Files.createDirectories(dir.resolve("logs")));
    // The row's admin port is port + 1: both from a block free when taken (an ephemeral port's
    // neighbour was another process's once, "address already in use").
    int port = FreePorts.block(2);
    List<String> command = contenders.command(new Contenders.Spec(row, row), port);
    boolean staticHandler = row.endsWith("-statichandler");
    assertThat(String.join(" ", command)).contains(row.startsWith("router-portshare")
        ? "io.portshare.runtime.launch.Launcher --service router" : "io.vertx.launcher.application.VertxApplication");
    assertThat(String.join(" ", command).contains("statichandler")).isEqualTo(staticHandler);
    try (Contender c = contenders.start(new Contenders.Spec(row, row), port)) {
      HttpClient http = HttpClient.newHttpClient();
      HttpResponse<byte[]> bin = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/1k.bin"))
          .build(), HttpResponse.BodyHandlers.ofByteArray());
      assertThat(bin.statusCode()).isEqualTo(200);
      assertThat(bin.body()).isEqualTo(file);
      assertThat(bin.headers().firstValue("etag").isPresent()).as("an ETag: StaticFiles sends one, StaticHandler none")
          .isEqualTo(!staticHandler);
      HttpResponse<String> hello = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/hello"))
          .build(), HttpResponse.BodyHandlers.ofString());
      assertThat(hello.body()).isEqualTo("hello\n");
      for (Workload w : List.of(Workload.named("1k.bin close"), Workload.named("hello keep-alive"))) {
        assertThat(AnswerCheck.problem("127.0.0.1", port, w, site)).as(w.label()).isNull();
      }
      assertThat(http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/none")).build(),
          HttpResponse.BodyHandlers.discarding()).statusCode()).isEqualTo(404);
    }
  }
}
