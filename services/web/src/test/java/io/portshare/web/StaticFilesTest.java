package io.portshare.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Router;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.UnaryOperator;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What {@link StaticFiles} answers, on a Router where a later route answers what it passes on
 * ({@code x-next: yes}). Each subclass mounts it somewhere else; every path here is below that mount.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class StaticFilesTest {

  static final String SECRET = "TOP-SECRET-OUTSIDE-THE-ROOT";
  static final Instant MODIFIED = Instant.parse("2025-03-07T04:05:06Z");
  static final Duration REVALIDATE = Duration.ofSeconds(3);

  Path tmp;
  Path root;
  Vertx vertx;
  int port;
  final List<Integer> answered = new CopyOnWriteArrayList<>();

  /** Where the handler answers, with no trailing slash ("" for the root). */
  abstract String mount();

  /** Puts {@code files} on {@code router} so that it answers under {@link #mount()}. */
  abstract void route(Router router, StaticFiles files);

  @BeforeAll
  void start() throws Exception {
    vertx = Vertx.vertx();
    tmp = Files.createTempDirectory("static-files-test");
    root = Files.createDirectories(tmp.resolve("root"));
    Files.createDirectories(tmp.resolve("outside"));
    Files.writeString(tmp.resolve("outside/secret.txt"), SECRET);
    Files.writeString(root.resolve("index.html"), "<p>index</p>\n");
    Files.writeString(root.resolve("hello.txt"), "hello\n");
    Files.setLastModifiedTime(root.resolve("hello.txt"), FileTime.from(MODIFIED));
    Files.write(root.resolve("big.bin"), new byte[100_000]);
    Files.writeString(root.resolve("app.js"), "console.log('plain');\n");
    Files.write(root.resolve("app.js.gz"), gzip("console.log('plain');\n"));
    Files.writeString(root.resolve(".env"), "hidden-content");
    Files.createDirectories(root.resolve("sub"));
    Files.writeString(root.resolve("sub/index.html"), "sub index\n");
    Files.createDirectories(root.resolve("noindex"));
    Files.writeString(root.resolve("noindex/a.txt"), "a");
    Files.writeString(root.resolve("noindex/.secret"), "hidden-content");
    Files.createSymbolicLink(root.resolve("escape.txt"), tmp.resolve("outside/secret.txt"));
    port = serve(b -> b.maxAge(Duration.ofSeconds(60)).memoryMax(32 << 10).revalidate(REVALIDATE)
        .listener((status, bytes, body) -> answered.add(status)));
  }

  @AfterAll
  void stop() throws IOException {
    vertx.close().await();
    try (var files = Files.walk(tmp)) {
      for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }

  /** A server of its own whose Router has the handler {@code settings} make, then a route for the rest. */
  int serve(UnaryOperator<StaticFiles.Builder> settings) {
    Router router = Router.router(vertx);
    route(router, settings.apply(StaticFiles.webroot(root)).build());
    router.route().handler(ctx -> ctx.response().setStatusCode(404).putHeader("x-next", "yes")
        .end("next " + ctx.request().method()));
    HttpServer server = vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1").await();
    return server.actualPort();
  }

  Wire.Answer get(String path, String... headers) throws IOException {
    return Wire.get(port, mount() + path, headers);
  }

  private static byte[] gzip(String s) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
      gz.write(s.getBytes(StandardCharsets.UTF_8));
    }
    return out.toByteArray();
  }

  @Test
  void aFileIsAnsweredWithItsValidatorsTypeAndCacheControl() throws IOException {
    Wire.Answer r = get("/hello.txt");
    assertThat(r.status()).isEqualTo(200);
    assertThat(r.text()).isEqualTo("hello\n");
    assertThat(r.header("content-type")).isEqualTo("text/plain; charset=utf-8");
    assertThat(r.header("etag")).matches("\"[0-9a-f]+-6\"");
    assertThat(r.header("last-modified")).isEqualTo("Fri, 07 Mar 2025 04:05:06 GMT");
    assertThat(r.header("cache-control")).isEqualTo("public, max-age=60");
    assertThat(r.header("accept-ranges")).isEqualTo("bytes");
    assertThat(r.header("vary")).isNull();
    assertThat(answered).contains(200);
  }

  @Test
  void aLargeFileGoesWholeBySendfile() throws IOException {
    Wire.Answer r = get("/big.bin");
    assertThat(r.status()).isEqualTo(200);
    assertThat(r.body()).hasSize(100_000);
    assertThat(r.header("content-length")).isEqualTo("100000");
  }

  @Test
  void theEtagOrTheDateGive304() throws IOException {
    String etag = get("/hello.txt").header("etag");
    assertThat(get("/hello.txt", "If-None-Match: " + etag).status()).isEqualTo(304);
    assertThat(get("/hello.txt", "If-None-Match: \"other\"").status()).isEqualTo(200);
    assertThat(get("/hello.txt", "If-Modified-Since: Fri, 07 Mar 2025 04:05:06 GMT").status()).isEqualTo(304);
    assertThat(get("/hello.txt", "If-Modified-Since: Fri, 07 Mar 2025 04:05:05 GMT").status()).isEqualTo(200);
  }

  @Test
  void aFileChangedAfterIfUnmodifiedSinceIs412() throws IOException {
    assertThat(get("/hello.txt", "If-Unmodified-Since: Fri, 07 Mar 2025 04:05:05 GMT").status()).isEqualTo(412);
    assertThat(get("/hello.txt", "If-Unmodified-Since: Fri, 07 Mar 2025 04:05:06 GMT").status()).isEqualTo(200);
  }

  @Test
  void rangesGive206AndUnsatisfiableOnes416AndIfRangeIsHonoured() throws IOException {
    Wire.Answer part = get("/hello.txt", "Range: bytes=1-3");
    assertThat(part.status()).isEqualTo(206);
    assertThat(part.text()).isEqualTo("ell");
    assertThat(part.header("content-range")).isEqualTo("bytes 1-3/6");
    Wire.Answer past = get("/hello.txt", "Range: bytes=100-");
    assertThat(past.status()).isEqualTo(416);
    assertThat(past.header("content-range")).isEqualTo("bytes */6");
    String etag = part.header("etag");
    assertThat(get("/hello.txt", "Range: bytes=0-0", "If-Range: " + etag).status()).isEqualTo(206);
    assertThat(get("/hello.txt", "Range: bytes=0-0", "If-Range: \"other\"").status()).isEqualTo(200);
    Wire.Answer bigPart = get("/big.bin", "Range: bytes=99990-");
    assertThat(bigPart.status()).isEqualTo(206);
    assertThat(bigPart.body()).hasSize(10);
  }

  @Test
  void headAnswersTheHeadOfGetWithoutABody() throws IOException {
    Wire.Answer r = Wire.exchange(port, "HEAD", mount() + "/hello.txt");
    assertThat(r.status()).isEqualTo(200);
    assertThat(r.header("content-length")).isEqualTo("6");
    assertThat(r.header("etag")).isEqualTo(get("/hello.txt").header("etag"));
    assertThat(r.body()).isEmpty();
  }

  @Test
  void aGzipSiblingGoesToClientsThatTakeGzipWithVary() throws IOException {
    Wire.Answer gz = get("/app.js", "Accept-Encoding: gzip, deflate");
    assertThat(gz.header("content-encoding")).isEqualTo("gzip");
    assertThat(gz.header("vary")).isEqualTo("Accept-Encoding");
    assertThat(gz.body()).isEqualTo(Files.readAllBytes(root.resolve("app.js.gz")));
    Wire.Answer plain = get("/app.js");
    assertThat(plain.header("content-encoding")).isNull();
    assertThat(plain.header("vary")).isEqualTo("Accept-Encoding");
    assertThat(plain.text()).isEqualTo("console.log('plain');\n");
    assertThat(gz.header("etag")).isNotEqualTo(plain.header("etag"));
  }

  @Test
  void aDirectoryAnswersItsIndexAfterARedirectToTheSlash() throws IOException {
    assertThat(get("/").text()).isEqualTo("<p>index</p>\n");
    Wire.Answer redirect = get("/sub?x=1");
    assertThat(redirect.status()).isEqualTo(301);
    assertThat(redirect.header("location")).isEqualTo(mount() + "/sub/?x=1");
    assertThat(get("/sub/").text()).isEqualTo("sub index\n");
  }

  @Test
  void aDirectoryWithoutIndexIsPassedOnUnlessListingsAreOn() throws IOException {
    assertThat(get("/noindex/").header("x-next")).isEqualTo("yes");
    int listing = serve(b -> b.listing(true));
    Wire.Answer page = Wire.get(listing, mount() + "/noindex/");
    assertThat(page.status()).isEqualTo(200);
    assertThat(page.header("content-type")).isEqualTo("text/html; charset=utf-8");
    assertThat(page.text()).contains("<a href=\"a.txt\">a.txt</a>").doesNotContain(".secret");
  }

  @Test
  void hiddenNamesArePassedOnUnlessServed() throws IOException {
    assertThat(get("/.env").header("x-next")).isEqualTo("yes");
    assertThat(get("/noindex/.secret").header("x-next")).isEqualTo("yes");
    int hidden = serve(b -> b.hidden(true));
    assertThat(Wire.get(hidden, mount() + "/.env").text()).isEqualTo("hidden-content");
  }

  @Test
  void noIndexSetting() throws IOException {
    int noIndex = serve(b -> b.index(null));
    assertThat(Wire.get(noIndex, mount() + "/").header("x-next")).isEqualTo("yes");
  }

  /** Traversal below the mount reaches the handler, which refuses it 400 before any file-system call. */
  @ParameterizedTest(name = "{0} is 400")
  @ValueSource(strings = {"/sub/%2e%2e/hello.txt", "/sub/%2E%2E/hello.txt", "/..%2f..%2foutside%2fsecret.txt",
      "/%2e%2e%2f%2e%2e%2foutside/secret.txt", "/sub/..%5c..%5chello.txt", "/%c0%ae%c0%ae/outside/secret.txt",
      "/hello.txt%00", "/sub%2f..%2f..%2foutside%2fsecret.txt"})
  void encodedTraversalIs400(String path) throws IOException {
    Wire.Answer r = get(path);
    assertThat(r.status()).isEqualTo(400);
    assertThat(r.text()).doesNotContain(SECRET);
  }

  /**
   * A plain {@code ..} that climbs out of the mount leaves it once vertx-web normalizes the path: then the
   * handler is not asked (the next route answers); at the root the handler sees the raw path and answers 400.
   */
  @ParameterizedTest(name = "{0} is refused")
  @ValueSource(strings = {"/../outside/secret.txt", "/sub/%2E%2E/%2e%2e/outside/secret.txt", "/sub/../../outside/secret.txt", "/./../outside/secret.txt"})
  void plainTraversalNeverLeavesTheRoot(String path) throws IOException {
    Wire.Answer r = get(path);
    assertThat(r.text()).doesNotContain(SECRET);
    if (mount().isEmpty()) {
      assertThat(r.status()).isEqualTo(400);
    } else {
      assertThat(r.status()).isIn(400, 404);
    }
  }

  /** Targets vertx-web cannot normalize (malformed percent-encoding) or that normalize to another path. */
  @ParameterizedTest(name = "{0} is {1}")
  @org.junit.jupiter.params.provider.CsvSource({"/a%zz,400", "/%,400", "/./hello.txt,200", "//hello.txt,200"})
  void oddTargetsAreAnsweredCleanly(String path, int status) throws IOException {
    Wire.Answer r = get(path);
    if (mount().isEmpty() || status == 200) {
      assertThat(r.status()).isEqualTo(status);
    } else {
      assertThat(r.status()).isIn(400, 404);
    }
  }

  @Test
  void aSymlinkOutOfTheRootIsNotServed() throws IOException {
    Wire.Answer r = get("/escape.txt");
    assertThat(r.header("x-next")).isEqualTo("yes");
    assertThat(r.text()).doesNotContain(SECRET);
  }

  @Test
  void aMissGoesToTheNextRoute() throws IOException {
    Wire.Answer r = get("/nothing-here.txt");
    assertThat(r.status()).isEqualTo(404);
    assertThat(r.header("x-next")).isEqualTo("yes");
    assertThat(r.text()).isEqualTo("next GET");
  }

  @ParameterizedTest(name = "{0} goes to the next route")
  @ValueSource(strings = {"POST", "PUT", "DELETE", "OPTIONS"})
  void otherMethodsGoToTheNextRoute(String method) throws IOException {
    Wire.Answer r = Wire.exchange(port, method, mount() + "/hello.txt", "Content-Length: 0");
    assertThat(r.header("x-next")).isEqualTo("yes");
    assertThat(r.text()).isEqualTo("next " + method);
  }

  /**
   * A hit makes no file-system call: a file deleted after its first answer is still answered from the
   * cache within the revalidation period, and passed on once the period has run out and the disk is asked.
   */
  @Test
  void aHitIsAnsweredFromTheCacheUntilItIsRevalidated() throws IOException {
    Path f = root.resolve("gone.txt");
    Files.writeString(f, "here\n");
    assertThat(get("/gone.txt").text()).isEqualTo("here\n");
    long answeredAt = System.nanoTime();
    Files.delete(f);
    Wire.Answer again = get("/gone.txt");
    if (System.nanoTime() - answeredAt < REVALIDATE.toNanos()) {
      assertThat(again.status()).isEqualTo(200);
      assertThat(again.text()).isEqualTo("here\n");
    }
    await().atMost(Duration.ofSeconds(15)).until(() -> "yes".equals(get("/gone.txt").header("x-next")));
  }

  /** A miss is kept too: a file created after a miss shows once the period has run out, not before. */
  @Test
  void aMissIsKeptUntilItIsRevalidated() throws IOException {
    assertThat(get("/later.txt").header("x-next")).isEqualTo("yes");
    long missedAt = System.nanoTime();
    Files.writeString(root.resolve("later.txt"), "later\n");
    Wire.Answer again = get("/later.txt");
    if (System.nanoTime() - missedAt < REVALIDATE.toNanos()) {
      assertThat(again.header("x-next")).isEqualTo("yes");
    }
    await().atMost(Duration.ofSeconds(15)).until(() -> get("/later.txt").text().equals("later\n"));
  }
}
