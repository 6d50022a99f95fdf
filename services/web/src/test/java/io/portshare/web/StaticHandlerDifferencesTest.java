package io.portshare.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.FileSystemAccess;
import io.vertx.ext.web.handler.StaticHandler;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * StaticFiles and vertx-web's own StaticHandler (5.0.7, its defaults) side by side on the same files,
 * one test per behaviour where they differ: services/web/README.md's table, row by row. A change on
 * either side fails here.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class StaticHandlerDifferencesTest {

  private Vertx vertx;
  private Path root;
  private int ours;
  private int theirs;

  @BeforeAll
  void start() throws IOException {
    vertx = Vertx.vertx();
    root = Files.createTempDirectory("static-handler-differences").toRealPath();
    Files.writeString(root.resolve("hello.txt"), "hello\n");
    Files.setLastModifiedTime(root.resolve("hello.txt"), FileTime.from(Instant.parse("2025-03-07T04:05:06Z")));
    Files.writeString(root.resolve("app.js"), "plain\n");
    ByteArrayOutputStream gz = new ByteArrayOutputStream();
    try (GZIPOutputStream out = new GZIPOutputStream(gz)) {
      out.write("plain\n".getBytes(StandardCharsets.UTF_8));
    }
    Files.write(root.resolve("app.js.gz"), gz.toByteArray());
    Files.writeString(root.resolve(".env"), "hidden-content");
    ours = serve(StaticFiles.webroot(root).build());
    theirs = serve(StaticHandler.create(FileSystemAccess.ROOT, root.toString()));
  }

  @AfterAll
  void stop() throws IOException {
    vertx.close().await();
    try (var files = Files.walk(root)) {
      for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }

  private int serve(Handler<RoutingContext> files) {
    Router router = Router.router(vertx);
    router.route().handler(files);
    router.route().handler(ctx -> ctx.response().setStatusCode(404).putHeader("x-next", "yes").end("next"));
    return vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1").await().actualPort();
  }

  @Test
  void onlyStaticFilesSendsAnEtagAndAnswersIfNoneMatch() throws IOException {
    String etag = Wire.get(ours, "/hello.txt").header("etag");
    assertThat(etag).isNotNull();
    assertThat(Wire.get(ours, "/hello.txt", "If-None-Match: " + etag).status()).isEqualTo(304);
    assertThat(Wire.get(theirs, "/hello.txt").header("etag")).isNull();
    assertThat(Wire.get(theirs, "/hello.txt", "If-None-Match: " + etag).status()).isEqualTo(200);
  }

  @Test
  void onlyStaticFilesAnswers412() throws IOException {
    String before = "If-Unmodified-Since: Fri, 07 Mar 2025 04:05:05 GMT";
    assertThat(Wire.get(ours, "/hello.txt", before).status()).isEqualTo(412);
    assertThat(Wire.get(theirs, "/hello.txt", before).status()).isEqualTo(200);
  }

  @Test
  void onlyStaticFilesSendsTheGzipSibling() throws IOException {
    Wire.Answer o = Wire.get(ours, "/app.js", "Accept-Encoding: gzip");
    assertThat(o.header("content-encoding")).isEqualTo("gzip");
    assertThat(o.header("vary")).isEqualTo("Accept-Encoding");
    Wire.Answer t = Wire.get(theirs, "/app.js", "Accept-Encoding: gzip");
    assertThat(t.header("content-encoding")).isNull();
    assertThat(t.text()).isEqualTo("plain\n");
  }

  @Test
  void aMissGoesToTheNextRouteOnBoth() throws IOException {
    assertThat(Wire.get(ours, "/nothing.txt").header("x-next")).isEqualTo("yes");
    assertThat(Wire.get(theirs, "/nothing.txt").header("x-next")).isEqualTo("yes");
  }

  @Test
  void hiddenNamesArePassedOnByStaticFilesAndServedByStaticHandler() throws IOException {
    assertThat(Wire.get(ours, "/.env").header("x-next")).isEqualTo("yes");
    assertThat(Wire.get(theirs, "/.env").text()).isEqualTo("hidden-content");
  }

  @Test
  void encodedTraversalIs400ForStaticFilesAndNormalizedAwayByStaticHandler() throws IOException {
    assertThat(Wire.get(ours, "/%2e%2e/hello.txt").status()).isEqualTo(400);
    assertThat(Wire.get(theirs, "/%2e%2e/hello.txt").status()).isEqualTo(200);
  }

  @Test
  void cacheControlAndDateDefaults() throws IOException {
    Wire.Answer o = Wire.get(ours, "/hello.txt");
    assertThat(o.header("cache-control")).isNull();
    assertThat(o.header("date")).isNull();
    Wire.Answer t = Wire.get(theirs, "/hello.txt");
    assertThat(t.header("cache-control")).isEqualTo("public, immutable, max-age=86400");
    assertThat(t.header("date")).isNotNull();
  }

  @Test
  void otherMethodsGoToTheNextRouteOnBoth() throws IOException {
    assertThat(Wire.exchange(ours, "POST", "/hello.txt", "Content-Length: 0").header("x-next")).isEqualTo("yes");
    assertThat(Wire.exchange(theirs, "POST", "/hello.txt", "Content-Length: 0").header("x-next")).isEqualTo("yes");
  }
}
