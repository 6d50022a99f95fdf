package io.portshare.bench.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.portshare.bench.cpu.CpuTime;
import io.portshare.bench.results.Cell;
import io.portshare.bench.results.ResultsText;
import io.portshare.bench.results.Row;
import io.portshare.bench.results.Table;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A 404, other bytes or another content type are never measured as a column's figure: the check before a
 * cell's warm-up names what is wrong, and a timed round with answers past 3xx keeps its errors and no figure.
 * Which rows have the dynamic route, and that the others' cells are left out.
 */
class AnswerCheckTest {

  @TempDir
  Path site;

  HttpServer server;
  int port;

  @BeforeEach
  void start() throws Exception {
    Files.write(site.resolve("1k.bin"), new byte[1024]);
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    answer("/1k.bin", 200, "application/octet-stream", new byte[1024]);
    answer("/hello", 200, "text/plain; charset=utf-8", "hello\n".getBytes(StandardCharsets.UTF_8));
    answer("/wrong-type/hello", 200, "text/html", "hello\n".getBytes(StandardCharsets.UTF_8));
    answer("/short/1k.bin", 200, "application/octet-stream", new byte[1000]);
    server.start();
    port = server.getAddress().getPort();
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  private void answer(String path, int status, String type, byte[] body) {
    server.createContext(path, x -> {
      if (!x.getRequestURI().getPath().equals(path)) {
        x.sendResponseHeaders(404, -1);
        x.close();
        return;
      }
      x.getResponseHeaders().add("content-type", type);
      x.sendResponseHeaders(status, body.length);
      x.getResponseBody().write(body);
      x.close();
    });
  }

  @Test
  void theExpectedAnswersPass() throws Exception {
    assertThat(AnswerCheck.problem("127.0.0.1", port, Workload.named("1k.bin close"), site)).isNull();
    assertThat(AnswerCheck.problem("127.0.0.1", port, Workload.named("hello close"), site)).isNull();
    assertThat(AnswerCheck.problem("127.0.0.1", port, Workload.named("hello keep-alive"), site)).isNull();
  }

  @Test
  void aNotFoundOtherBytesOrAnotherTypeFailTheCell() throws Exception {
    Workload missing = new Workload("x close", Contender.Kind.HTTP, 0, 1, "none/hello");
    assertThat(AnswerCheck.problem("127.0.0.1", port, new Workload("hello close", Contender.Kind.HTTP, 0, 1, "hello/x"),
        site)).contains("with 404, not 200");
    assertThat(AnswerCheck.problem("127.0.0.1", port, missing, site)).contains("404");
    Files.createDirectories(site.resolve("short"));
    Files.write(site.resolve("short/1k.bin"), new byte[1024]);
    assertThat(AnswerCheck.problem("127.0.0.1", port, new Workload("s close", Contender.Kind.HTTP, 0, 1, "short/1k.bin"),
        site)).contains("1000 other bytes than the expected 1024");
  }

  @Test
  void aHelloOfAnotherContentTypeFails() throws Exception {
    // the dynamic route is recognised by its path; a body of the right bytes in another type is not the same answer
    Workload hello = Workload.named("hello close");
    assertThat(hello.dynamic()).isTrue();
    server.removeContext("/hello");
    answer("/hello", 200, "text/html", "hello\n".getBytes(StandardCharsets.UTF_8));
    assertThat(AnswerCheck.problem("127.0.0.1", port, hello, site)).contains("content-type \"text/html\"");
  }

  @Test
  void aRoundWithAnswersPast3xxHasNoFigureButItsErrors() {
    Pass notFound = new Pass(5000, 5000, 1.0, new CpuTime(0.1, 0.2), 0.3, 5000, 5000);
    Pass fine = new Pass(5000, 5000, 1.0, new CpuTime(0.1, 0.2), 0.3, 0, 0);
    assertThat(LedgerTables.round(notFound).value(LedgerTables.CPU.key())).isNaN();
    assertThat(LedgerTables.round(notFound).errors()).isEqualTo(5000);
    assertThat(LedgerTables.round(fine).value(LedgerTables.CPU.key()))
        .isEqualTo(60.0, org.assertj.core.data.Offset.offset(1e-9));
    Table t = new Table("http", "static files", List.of(LedgerTables.CPU), List.of("hello close"),
        List.of(new Row("bad", List.of(new Cell("hello close",
                List.of(LedgerTables.round(notFound), LedgerTables.round(notFound))))),
            new Row("unchecked", List.of(new Cell("hello close", List.of(LedgerTables.FAILED_CHECK))))), null);
    String text = ResultsText.table(t);
    assertThat(text).doesNotContain("60.0").contains("- *", "bad, hello close: 10000 errors",
        "unchecked, hello close: 1 errors");
  }

  @Test
  void onlyTheRouterRowsAndNginxHaveTheDynamicRoute() {
    Workload hello = Workload.named("hello keep-alive");
    assertThat(Contenders.HTTP.stream().filter(r -> new Contenders.Spec(r, r).serves(hello)).toList())
        .containsExactly("nginx", "router-portshare", "router-stock", "router-portshare-statichandler",
            "router-stock-statichandler");
    assertThat(Contenders.Spec.variant("router-x=router-stock -XX:+UseParallelGC").serves(hello)).isTrue();
    assertThat(Contenders.Spec.variant("static-x=static-server-vertx").serves(hello)).isFalse();
    assertThat(new Contenders.Spec("static-server", "static-server").serves(Workload.named("1k.bin close"))).isTrue();
    assertThat(new Contenders.Spec("c-echo", "c-echo").serves(hello)).isFalse();
    assertThat(Workload.named("hello close").close()).isTrue();
    assertThat(Workload.named("1k.bin keep-alive").dynamic()).isFalse();
  }
}
