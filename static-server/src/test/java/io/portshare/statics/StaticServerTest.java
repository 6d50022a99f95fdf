package io.portshare.statics;

import io.portshare.web.internal.HttpDates;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.portshare.kit.HttpWire;
import io.portshare.kit.PrometheusText;
import io.portshare.runtime.Runtimes;
import io.portshare.runtime.impl.ServiceRuntime;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Random;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The static service over real sockets: what it answers, how, and what it counts. */
class StaticServerTest {

  static final String SECRET = "TOP-SECRET-OUTSIDE-THE-ROOT";
  /** RFC 9110 IMF-fixdate: the day always has two digits. */
  static final String IMF_FIXDATE = "(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \\d{2} [A-Z][a-z]{2} \\d{4} \\d{2}:\\d{2}:\\d{2} GMT";
  /** When dated.txt was last modified: a day of one digit, which IMF-fixdate writes as "07". */
  static final Instant DATED = Instant.parse("2025-03-07T04:05:06Z");

  @TempDir
  static Path tmp;
  static Path root;
  static byte[] big;
  @RegisterExtension
  static final Runtimes runtimes = new Runtimes();
  static ServiceRuntime rt;
  static int port;

  @BeforeAll
  static void start(TestInfo test) throws IOException {
    // JUnit (5.11 on) also runs a superclass's static @BeforeAll that a subclass's hides: a subclass
    // starts its own server (StaticServerOnIoUringTest), so this one starts only for this class.
    if (test.getTestClass().orElseThrow() == StaticServerTest.class) {
      startWith();
    }
  }

  /** The server under test, with {@code extra} flags (a subclass runs every test on another transport). */
  static void startWith(String... extra) throws IOException {
    root = Files.createDirectories(tmp.resolve("root"));
    Site.populate(root, tmp.resolve("outside"));
    big = Files.readAllBytes(root.resolve("big.bin"));
    String[] flags = Stream.concat(Stream.of("--memory-max", "32KiB"),
        Arrays.stream(extra)).toArray(String[]::new);
    rt = runtimes.start(new StaticService(), TestServers.flags(root, flags));
    port = rt.port();
  }

  @Test
  void getOfTheRootAnswersItsIndexWithTypeDateAndServer() throws IOException {
    HttpWire.Response r = HttpWire.get(port, "/");
    assertThat(r.status()).isEqualTo(200);
    assertThat(r.text()).isEqualTo(Site.INDEX);
    assertThat(r.header("content-type")).isEqualTo("text/html; charset=utf-8");
    assertThat(r.header("content-length")).isEqualTo(Integer.toString(Site.INDEX.length()));
    assertThat(r.header("server")).isEqualTo("portshare");
    assertThat(r.header("date")).matches(IMF_FIXDATE);
    assertThat(r.header("cache-control")).isEqualTo("public, max-age=60");
  }

  @Test
  void subdirectoryIndexAndRedirectToTheSlash() throws IOException {
    assertThat(HttpWire.get(port, "/sub/").text()).isEqualTo("sub index\n");
    HttpWire.Response r = HttpWire.get(port, "/sub?x=1");
    assertThat(r.status()).isEqualTo(301);
    assertThat(r.header("location")).isEqualTo("/sub/?x=1");
  }

  @Test
  void directoryWithoutIndexIsNotListedByDefault() throws IOException {
    HttpWire.Response r = HttpWire.get(port, "/noindex/");
    assertThat(r.status()).isEqualTo(404);
    assertThat(r.text()).doesNotContain("a.txt");
  }

  @Test
  void headAnswersTheHeadersOfGetWithoutABody() throws IOException {
    try (HttpWire c = new HttpWire(port)) {
      c.send("HEAD /big.bin HTTP/1.1\r\nHost: t\r\n\r\n");
      HttpWire.Response r = c.read(true);
      assertThat(r.status()).isEqualTo(200);
      assertThat(r.header("content-length")).isEqualTo(Integer.toString(big.length));
      // No body followed: the next answer on this connection starts right away.
      c.send("GET /hello.txt HTTP/1.1\r\nHost: t\r\n\r\n");
      assertThat(c.read(false).text()).isEqualTo("hello\n");
    }
  }

  @Test
  void hiddenFilesAndDirectoriesAreNotFound() throws IOException {
    for (String p : new String[] {"/.env", "/.git/config", "/.git/", "/sub/.hidden", "/%2eenv", "/sub/%2Ehidden"}) {
      HttpWire.Response r = HttpWire.get(port, p);
      assertThat(r.status()).as(p).isEqualTo(404);
      assertThat(r.text()).as(p).doesNotContain("hidden-content");
    }
  }

  @Test
  void aFragmentIsNoPartOfATargetButAnEncodedHashIsAName() throws IOException {
    assertThat(HttpWire.get(port, "/hello.txt#frag").status()).isEqualTo(400);
    assertThat(HttpWire.get(port, "/hello.txt%23frag").status()).isEqualTo(404);
  }

  @Test
  void otherMethodsAre405WithAllow() throws IOException {
    try (HttpWire c = new HttpWire(port)) {
      c.send("POST /hello.txt HTTP/1.1\r\nHost: t\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
      HttpWire.Response r = c.read(false);
      assertThat(r.status()).isEqualTo(405);
      assertThat(r.header("allow")).isEqualTo("GET, HEAD");
    }
  }

  @Test
  void etagAndLastModifiedGive304() throws IOException {
    HttpWire.Response first = HttpWire.get(port, "/hello.txt");
    String etag = first.header("etag");
    String modified = first.header("last-modified");
    assertThat(etag).matches("\"[0-9a-f]+-[0-9a-f]+\"");
    assertThat(HttpWire.get(port, "/hello.txt", "If-None-Match: " + etag + "\r\n").status()).isEqualTo(304);
    assertThat(HttpWire.get(port, "/hello.txt", "If-None-Match: \"x\", W/" + etag + "\r\n").status()).isEqualTo(304);
    assertThat(HttpWire.get(port, "/hello.txt", "If-None-Match: \"other\"\r\n").status()).isEqualTo(200);
    HttpWire.Response notModified = HttpWire.get(port, "/hello.txt", "If-Modified-Since: " + modified + "\r\n");
    assertThat(notModified.status()).isEqualTo(304);
    assertThat(notModified.header("etag")).isEqualTo(etag);
    assertThat(notModified.body()).isEmpty();
    assertThat(HttpWire.get(port, "/hello.txt", "If-Modified-Since: Thu, 01 Jan 1998 00:00:00 GMT\r\n").status())
        .isEqualTo(200);
    // If-None-Match wins over If-Modified-Since.
    assertThat(HttpWire.get(port, "/hello.txt", "If-None-Match: \"other\"\r\nIf-Modified-Since: " + modified + "\r\n")
        .status()).isEqualTo(200);
    assertThat(HttpWire.get(port, "/big.bin", "If-None-Match: " + HttpWire.get(port, "/big.bin").header("etag") + "\r\n")
        .status()).isEqualTo(304);
  }

  @Test
  void dateIsAnImfFixdateOfNowRefreshedEverySecond() throws Exception {
    long before = Instant.now().getEpochSecond();
    String first = HttpWire.get(port, "/hello.txt").header("date");
    assertThat(first).matches(IMF_FIXDATE);
    // Never ahead of the clock; behind it by no more than a refresh a loaded machine delays (a minute
    // only catches a wrong zone or a value from long ago: that the value moves on is checked next).
    assertThat(HttpDates.parseSeconds(first)).isBetween(before - 60, Instant.now().getEpochSecond());
    // The pre-encoded value moves on by the timer, not by requests, and only forward.
    await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
        .until(() -> !HttpWire.get(port, "/hello.txt").header("date").equals(first));
    String later = HttpWire.get(port, "/hello.txt").header("date");
    assertThat(HttpDates.parseSeconds(later)).isGreaterThan(HttpDates.parseSeconds(first))
        .isLessThanOrEqualTo(Instant.now().getEpochSecond());
  }

  @Test
  void lastModifiedIsAnImfFixdateWithATwoDigitDay() throws IOException {
    assertThat(HttpWire.get(port, "/dated.txt").header("last-modified")).isEqualTo("Fri, 07 Mar 2025 04:05:06 GMT");
  }

  /** The three forms of one instant a recipient must accept (RFC 9110 section 5.6.7). */
  static Stream<Arguments> dateForms() {
    return Stream.of(
        Arguments.of("IMF-fixdate", "Fri, 07 Mar 2025 04:05:06 GMT", "Fri, 07 Mar 2025 04:05:05 GMT"),
        Arguments.of("RFC 850", "Friday, 07-Mar-25 04:05:06 GMT", "Friday, 07-Mar-25 04:05:05 GMT"),
        Arguments.of("asctime", "Fri Mar  7 04:05:06 2025", "Fri Mar  7 04:05:05 2025"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dateForms")
  void ifModifiedSinceInEveryDateForm(String form, String modified, String secondBefore) throws IOException {
    HttpWire.Response same = HttpWire.get(port, "/dated.txt", "If-Modified-Since: " + modified + "\r\n");
    assertThat(same.status()).isEqualTo(304);
    assertThat(same.body()).isEmpty();
    HttpWire.Response changed = HttpWire.get(port, "/dated.txt", "If-Modified-Since: " + secondBefore + "\r\n");
    assertThat(changed.status()).isEqualTo(200);
    assertThat(changed.text()).isEqualTo("dated\n");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dateForms")
  void ifUnmodifiedSinceInEveryDateForm(String form, String modified, String secondBefore) throws IOException {
    HttpWire.Response unchanged = HttpWire.get(port, "/dated.txt", "If-Unmodified-Since: " + modified + "\r\n");
    assertThat(unchanged.status()).isEqualTo(200);
    assertThat(unchanged.text()).isEqualTo("dated\n");
    HttpWire.Response changed = HttpWire.get(port, "/dated.txt", "If-Unmodified-Since: " + secondBefore + "\r\n");
    assertThat(changed.status()).isEqualTo(412);
    assertThat(changed.header("content-length")).isEqualTo("0");
    assertThat(changed.body()).isEmpty();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dateForms")
  void ifRangeInEveryDateForm(String form, String modified, String secondBefore) throws IOException {
    HttpWire.Response part = HttpWire.get(port, "/dated.txt", "Range: bytes=1-3\r\nIf-Range: " + modified + "\r\n");
    assertThat(part.status()).isEqualTo(206);
    assertThat(part.text()).isEqualTo("ate");
    HttpWire.Response whole = HttpWire.get(port, "/dated.txt", "Range: bytes=1-3\r\nIf-Range: " + secondBefore + "\r\n");
    assertThat(whole.status()).isEqualTo(200);
    assertThat(whole.text()).isEqualTo("dated\n");
  }

  @Test
  void aConditionalThatIsNotADateIsIgnored() throws IOException {
    assertThat(HttpWire.get(port, "/dated.txt", "If-Modified-Since: yesterday\r\n").status()).isEqualTo(200);
    assertThat(HttpWire.get(port, "/dated.txt", "If-Unmodified-Since: yesterday\r\n").status()).isEqualTo(200);
  }

  @Test
  void rangesGive206AndUnsatisfiableOnes416() throws IOException {
    HttpWire.Response r = HttpWire.get(port, "/hello.txt", "Range: bytes=1-3\r\n");
    assertThat(r.status()).isEqualTo(206);
    assertThat(r.text()).isEqualTo("ell");
    assertThat(r.header("content-range")).isEqualTo("bytes 1-3/6");
    assertThat(HttpWire.get(port, "/hello.txt", "Range: bytes=-2\r\n").text()).isEqualTo("o\n");
    assertThat(HttpWire.get(port, "/hello.txt", "Range: bytes=4-\r\n").text()).isEqualTo("o\n");
    assertThat(HttpWire.get(port, "/hello.txt", "Range: bytes=4-999\r\n").header("content-range"))
        .isEqualTo("bytes 4-5/6");

    HttpWire.Response past = HttpWire.get(port, "/hello.txt", "Range: bytes=6-\r\n");
    assertThat(past.status()).isEqualTo(416);
    assertThat(past.header("content-range")).isEqualTo("bytes */6");
    assertThat(HttpWire.get(port, "/hello.txt", "Range: bytes=-0\r\n").status()).isEqualTo(416);
    // Malformed ranges and several ranges are ignored: the whole file.
    assertThat(HttpWire.get(port, "/hello.txt", "Range: bytes=x-y\r\n").status()).isEqualTo(200);
    assertThat(HttpWire.get(port, "/hello.txt", "Range: bytes=0-1,3-4\r\n").status()).isEqualTo(200);
    // A stale If-Range means the whole file.
    assertThat(HttpWire.get(port, "/hello.txt", "Range: bytes=1-3\r\nIf-Range: \"stale\"\r\n").status()).isEqualTo(200);

    // A range of a file that goes out by sendfile.
    HttpWire.Response slice = HttpWire.get(port, "/big.bin", "Range: bytes=100000-100999\r\n");
    assertThat(slice.status()).isEqualTo(206);
    assertThat(slice.body()).isEqualTo(Arrays.copyOfRange(big, 100000, 101000));
  }

  @Test
  void contentTypeFollowsTheExtension() throws IOException {
    assertThat(HttpWire.get(port, "/style.css").header("content-type")).isEqualTo("text/css; charset=utf-8");
    assertThat(HttpWire.get(port, "/hello.txt").header("content-type")).isEqualTo("text/plain; charset=utf-8");
    assertThat(HttpWire.get(port, "/pic.PNG").header("content-type")).isEqualTo("image/png");
    assertThat(HttpWire.get(port, "/app.js").header("content-type")).isEqualTo("text/javascript; charset=utf-8");
    assertThat(HttpWire.get(port, "/data.json").header("content-type")).isEqualTo("application/json");
    assertThat(HttpWire.get(port, "/big.bin").header("content-type")).isEqualTo("application/octet-stream");
  }

  @Test
  void gzipSiblingGoesToClientsThatAcceptIt() throws IOException {
    HttpWire.Response gz = HttpWire.get(port, "/style.css", "Accept-Encoding: br, gzip\r\n");
    assertThat(gz.header("content-encoding")).isEqualTo("gzip");
    assertThat(gz.header("vary")).isEqualTo("Accept-Encoding");
    assertThat(gz.header("content-type")).isEqualTo("text/css; charset=utf-8");
    assertThat(new String(new GZIPInputStream(new ByteArrayInputStream(gz.body())).readAllBytes(),
        StandardCharsets.UTF_8)).isEqualTo(Site.CSS);
    HttpWire.Response plain = HttpWire.get(port, "/style.css");
    assertThat(plain.header("content-encoding")).isNull();
    assertThat(plain.text()).isEqualTo(Site.CSS);
    assertThat(plain.header("vary")).isEqualTo("Accept-Encoding");
    assertThat(plain.header("etag")).isNotEqualTo(gz.header("etag"));
    assertThat(HttpWire.get(port, "/style.css", "Accept-Encoding: gzip;q=0\r\n").header("content-encoding")).isNull();
  }

  @Test
  void largeFileGoesOutBySendfileAndSmallFromMemory() throws IOException, InterruptedException {
    double sendfileBefore = metric("portshare_static_body_bytes_total", "path", "sendfile");
    double copyBefore = metric("portshare_static_body_bytes_total", "path", "copy");
    assertThat(HttpWire.get(port, "/big.bin").body()).isEqualTo(big);
    assertThat(metric("portshare_static_body_bytes_total", "path", "sendfile") - sendfileBefore).isEqualTo(big.length);
    assertThat(HttpWire.get(port, "/hello.txt").text()).isEqualTo("hello\n");
    assertThat(metric("portshare_static_body_bytes_total", "path", "copy") - copyBefore).isGreaterThanOrEqualTo(6);
  }

  @Test
  void keepAliveServesManyOnOneConnectionAndConnectionCloseCloses() throws IOException {
    try (HttpWire c = new HttpWire(port)) {
      for (int i = 0; i < 3; i++) {
        c.send("GET /hello.txt HTTP/1.1\r\nHost: t\r\n\r\n");
        HttpWire.Response r = c.read(false);
        assertThat(r.text()).isEqualTo("hello\n");
        assertThat(r.header("connection")).isNull();
      }
      c.send("GET /big.bin HTTP/1.1\r\nHost: t\r\n\r\n");
      assertThat(c.read(false).body()).isEqualTo(big);
      c.send("GET /hello.txt HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n");
      assertThat(c.read(false).text()).isEqualTo("hello\n");
      assertThat(c.closedByServer(10_000)).isTrue();
    }
    try (HttpWire c = new HttpWire(port)) {
      c.send("GET /hello.txt HTTP/1.0\r\n\r\n");
      assertThat(c.read(false).text()).isEqualTo("hello\n");
      assertThat(c.closedByServer(10_000)).isTrue();
    }
  }

  @Test
  void pipelinedRequestsAreAnsweredInOrder() throws IOException {
    try (HttpWire c = new HttpWire(port)) {
      c.send("GET /hello.txt HTTP/1.1\r\nHost: t\r\n\r\nGET /big.bin HTTP/1.1\r\nHost: t\r\n\r\n"
          + "GET /style.css HTTP/1.1\r\nHost: t\r\n\r\n");
      assertThat(c.read(false).text()).isEqualTo("hello\n");
      assertThat(c.read(false).body()).isEqualTo(big);
      assertThat(c.read(false).text()).isEqualTo(Site.CSS);
    }
  }

  @Test
  void tooLongRequestLineIs414AndTooLargeHeadersAre431AndEachCloses() throws IOException {
    // Keep-alive requests: the close must come from the refusal, not from the client asking for it.
    try (HttpWire c = new HttpWire(port)) {
      c.send("GET /" + "a".repeat(5000) + " HTTP/1.1\r\nHost: t\r\n\r\n");
      assertThat(c.read(false).status()).isEqualTo(414);
      assertThat(c.closedByServer(10_000)).as("closed after the 414").isTrue();
    }
    try (HttpWire c = new HttpWire(port)) {
      c.send("GET /hello.txt HTTP/1.1\r\nHost: t\r\nX-Big: " + "b".repeat(9000) + "\r\n\r\n");
      assertThat(c.read(false).status()).isEqualTo(431);
      assertThat(c.closedByServer(10_000)).as("closed after the 431").isTrue();
    }
    assertThat(HttpWire.get(port, "/hello.txt").status()).isEqualTo(200);
  }

  @Test
  void garbageOnTheWireClosesThatConnectionOnly() throws IOException {
    try (HttpWire c = new HttpWire(port)) {
      c.send("\u0001\u0002 garbage \u00ff\r\n\r\n");
      HttpWire.Response r = c.read(false);
      assertThat(r.status()).isEqualTo(400);
      assertThat(c.closedByServer(10_000)).isTrue();
    }
    assertThat(HttpWire.get(port, "/hello.txt").status()).isEqualTo(200);
  }

  @Test
  void anHttp11RequestWithoutHostIs400AndCloses() throws IOException {
    try (HttpWire c = new HttpWire(port)) {
      c.send("GET /hello.txt HTTP/1.1\r\n\r\n");
      assertThat(c.read(false).status()).isEqualTo(400);
      assertThat(c.closedByServer(10_000)).isTrue();
    }
  }

  @Test
  void changedFileIsServedAnewWithinASecond() throws IOException {
    Path f = root.resolve("changing.txt");
    Files.writeString(f, "one\n");
    assertThat(HttpWire.get(port, "/changing.txt").text()).isEqualTo("one\n");
    Files.writeString(f, "two, longer\n");
    Files.setLastModifiedTime(f, FileTime.from(Instant.now().plusSeconds(5)));
    await().atMost(Duration.ofSeconds(10)).until(() -> HttpWire.get(port, "/changing.txt").text().equals("two, longer\n"));
    Files.delete(f);
    await().atMost(Duration.ofSeconds(10)).until(() -> HttpWire.get(port, "/changing.txt").status() == 404);
  }

  @Test
  void metricsCountRequestsByStatusClassBytesAndConnections() throws Exception {
    double ok = metric("portshare_static_requests_total", "status", "2xx");
    double notFound = metric("portshare_static_requests_total", "status", "4xx");
    double bytes = metric("portshare_static_bytes_sent_bytes_total");
    HttpWire.get(port, "/hello.txt");
    HttpWire.get(port, "/nope");
    assertThat(metric("portshare_static_requests_total", "status", "2xx") - ok).isEqualTo(1);
    assertThat(metric("portshare_static_requests_total", "status", "4xx") - notFound).isEqualTo(1);
    // Bytes of file bodies only: the 404's own text is not counted.
    assertThat(metric("portshare_static_bytes_sent_bytes_total") - bytes).isEqualTo(6);
    // Closes are seen by the server a moment after the client's: wait for the count to settle.
    await().atMost(Duration.ofSeconds(10)).until(() -> metric("portshare_connections_open") == 0);
    try (HttpWire c = new HttpWire(port)) {
      c.send("GET /hello.txt HTTP/1.1\r\nHost: t\r\n\r\n").read(false);
      assertThat(metric("portshare_connections_open")).isEqualTo(1);
    }
    await().atMost(Duration.ofSeconds(10)).until(() -> metric("portshare_connections_open") == 0);
  }

  static double metric(String name, String... labels) throws IOException, InterruptedException {
    return metricOf(rt, name, labels);
  }

  static double metricOf(ServiceRuntime rt, String name, String... labels) throws IOException, InterruptedException {
    HttpClient client = HttpClient.newHttpClient();
    String text = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + rt.adminPort() + "/metrics"))
        .build(), HttpResponse.BodyHandlers.ofString()).body();
    PrometheusText p = PrometheusText.parse(text);
    return p.named(name).stream().filter(s -> {
      for (int i = 0; i + 1 < labels.length; i += 2) {
        if (!labels[i + 1].equals(s.labels().get(labels[i]))) {
          return false;
        }
      }
      return true;
    }).mapToDouble(PrometheusText.Sample::value).sum();
  }

  /** The files the tests serve, and one outside the root that must never be served. */
  static final class Site {
    static final String INDEX = "<!DOCTYPE html><title>t</title><p>root index</p>\n";
    static final String CSS = "body { color: #222; }\n".repeat(20);

    static void populate(Path root, Path outside) throws IOException {
      Files.createDirectories(outside);
      Files.writeString(outside.resolve("secret.txt"), SECRET);
      Files.writeString(root.resolve("index.html"), INDEX);
      Files.writeString(root.resolve("hello.txt"), "hello\n");
      Files.writeString(root.resolve("dated.txt"), "dated\n");
      Files.setLastModifiedTime(root.resolve("dated.txt"), FileTime.from(DATED));
      Files.writeString(root.resolve("style.css"), CSS);
      try (OutputStream gz = new GZIPOutputStream(Files.newOutputStream(root.resolve("style.css.gz")))) {
        gz.write(CSS.getBytes(StandardCharsets.UTF_8));
      }
      Files.writeString(root.resolve("pic.PNG"), "png");
      Files.writeString(root.resolve("app.js"), "1");
      Files.writeString(root.resolve("data.json"), "{}");
      byte[] big = new byte[300_000];
      new Random(7).nextBytes(big);
      Files.write(root.resolve("big.bin"), big);
      Files.writeString(root.resolve(".env"), "hidden-content");
      Files.createDirectories(root.resolve(".git"));
      Files.writeString(root.resolve(".git/config"), "hidden-content");
      Files.writeString(root.resolve(".git/index.html"), "hidden-content");
      Files.createDirectories(root.resolve("sub"));
      Files.writeString(root.resolve("sub/index.html"), "sub index\n");
      Files.writeString(root.resolve("sub/.hidden"), "hidden-content");
      Files.createDirectories(root.resolve("noindex"));
      Files.writeString(root.resolve("noindex/a.txt"), "a");
      Files.writeString(root.resolve("noindex/.secret"), "hidden-content");
      Files.createSymbolicLink(root.resolve("link.txt"), outside.resolve("secret.txt"));
      Files.createSymbolicLink(root.resolve("linkdir"), outside);
      Files.createSymbolicLink(root.resolve("inside-link.txt"), root.resolve("hello.txt"));
    }
  }
}
