package io.portshare.statics.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import io.portshare.kit.LogCapture;
import io.portshare.kit.RawExchange;
import io.portshare.runtime.ServiceRuntime;
import io.portshare.kit.PrometheusText;
import io.portshare.statics.StaticService;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Random and mutated HTTP requests against a real static server: every answer is a well-formed
 * HTTP/1.x response with a status the protocol allows for bad input (never a 5xx), no answer
 * carries a stack trace or a class name, nothing escapes a handler (no WARN/ERROR log), and a
 * well-behaved client served at the same time sees only correct answers.
 *
 * <p>{@code -Dfuzz.cases=N} runs N cases (default 2000), {@code -Dfuzz.seed=S} another seed.
 */
class StaticFuzzTest {

  private static final int CASES = Integer.getInteger("fuzz.cases", 2000);
  private static final long SEED = Long.getLong("fuzz.seed", 20261130L);
  private static final int WORKERS = 3;
  private static final Set<Integer> ALLOWED = Set.of(100, 200, 206, 301, 304, 400, 404, 405, 408, 411, 413, 414,
      416, 417, 431, 501, 505);
  /** Every answer is HTTP/1.1 (or 1.0), whatever version the request named (VersionGuard). */
  private static final Pattern STATUS_LINE = Pattern.compile("(?:^|\r\n)HTTP/1\\.[01] (\\d{3})[ \r]");
  private static final Pattern LEAK = Pattern.compile("Exception|\tat |java\\.|io\\.netty|io\\.vertx|portshare\\.");

  @TempDir
  static Path root;

  @Test
  void hostileRequestsGetCleanAnswersAndHarmNoOtherClient() throws Exception {
    Files.writeString(root.resolve("hello.txt"), HttpRequests.HELLO);
    Files.createDirectories(root.resolve("sub"));
    Files.writeString(root.resolve("sub/index.html"), "<p>sub</p>\n");
    byte[] big = new byte[200_000];
    new Random(1).nextBytes(big);
    Files.write(root.resolve("big.bin"), big);

    try (LogCapture log = LogCapture.attach()) {
      ServiceRuntime rt = ServiceRuntime.start(new StaticService(), "--port", "0", "--admin-port", "0",
          "--host", "127.0.0.1", "--instances", "2", "--mode", "shared", "--root", root.toString(),
          "--header-timeout", "1s", "--idle-timeout", "2s");
      ExecutorService pool = Executors.newFixedThreadPool(WORKERS + 1);
      AtomicBoolean stop = new AtomicBoolean();
      try {
        Future<long[]> goodClient = pool.submit(() -> wellBehavedClient(rt.port(), stop, big));
        List<Future<List<String>>> workers = new ArrayList<>();
        for (int w = 0; w < WORKERS; w++) {
          int worker = w;
          workers.add(pool.submit(() -> runCases(rt.port(), worker)));
        }
        List<String> failures = new ArrayList<>();
        for (Future<List<String>> f : workers) {
          failures.addAll(f.get());
        }
        stop.set(true);
        long[] good = goodClient.get();

        assertThat(failures).as("cases answered badly").isEmpty();
        assertThat(good[1]).as("errors seen by the well-behaved client").isZero();
        assertThat(good[0]).as("requests of the well-behaved client").isPositive();
        PrometheusText metrics = PrometheusText.parse(rt.registry().scrape());
        assertThat(metrics.named("portshare_static_requests_total").stream()
            .filter(m -> "5xx".equals(m.labels().get("status"))).mapToDouble(PrometheusText.Sample::value).sum())
            .as("5xx answers counted").isZero();
        assertThat(log.warningsAndErrors()).as("warnings and errors logged").isEmpty();
      } finally {
        stop.set(true);
        pool.shutdownNow();
        rt.stop(Duration.ofSeconds(2));
      }
    }
  }

  private static List<String> runCases(int port, int worker) {
    List<String> failures = new ArrayList<>();
    for (int i = worker; i < CASES && failures.size() < 5; i += WORKERS) {
      Random r = new Random(SEED * 1_000_003L + i);
      HttpRequests.Case c = HttpRequests.generate(r);
      try {
        String problem = check(c, exchange(port, c.bytes(), r));
        if (problem != null) {
          String text = new String(c.bytes(), 0, Math.min(200, c.bytes().length), StandardCharsets.ISO_8859_1);
          failures.add("case " + i + " (" + c.kind() + ", seed " + SEED + "): " + problem + "; request starts: "
              + text.replace("\r", "\\r").replace("\n", "\\n"));
        }
      } catch (IOException e) {
        failures.add("case " + i + " (" + c.kind() + "): " + e);
      }
    }
    return failures;
  }

  /** Null when the answer is acceptable, else what is wrong with it. */
  private static String check(HttpRequests.Case c, byte[] answer) {
    String text = new String(answer, StandardCharsets.ISO_8859_1);
    if (c.control()) {
      return text.startsWith("HTTP/1.1 200 ") && text.endsWith("\r\n\r\n" + HttpRequests.HELLO) ? null
          : "control request answered: " + abbreviate(text);
    }
    if (answer.length == 0) {
      return null; // closed without a word: allowed for bytes that are not HTTP at all
    }
    Matcher m = STATUS_LINE.matcher(text);
    if (!m.lookingAt()) {
      return "answer is not HTTP: " + abbreviate(text);
    }
    m.reset();
    while (m.find()) {
      int status = Integer.parseInt(m.group(1));
      if (!ALLOWED.contains(status)) {
        return "status " + status + ": " + abbreviate(text);
      }
    }
    // The only files served hold no such text, so any match came from the server itself.
    Matcher leak = LEAK.matcher(text.replace("\r\nServer: portshare", ""));
    if (leak.find()) {
      return "answer leaks internals (\"" + leak.group() + "\"): " + abbreviate(text);
    }
    return null;
  }

  private static String abbreviate(String s) {
    String t = s.length() > 300 ? s.substring(0, 300) + "..." : s;
    return t.replace("\r", "\\r").replace("\n", "\\n");
  }

  private static byte[] exchange(int port, byte[] bytes, Random r) throws IOException {
    return RawExchange.exchange(port, bytes, r, 16, 8192);
  }

  /** Keep-alive GETs of a small and a large file, checking status and body; returns {requests, errors}. */
  private static long[] wellBehavedClient(int port, AtomicBoolean stop, byte[] big) {
    HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(10)).build();
    URI hello = URI.create("http://127.0.0.1:" + port + "/hello.txt");
    URI bigUri = URI.create("http://127.0.0.1:" + port + "/big.bin");
    long done = 0;
    long errors = 0;
    while (!stop.get()) {
      try {
        HttpResponse<byte[]> a = client.send(HttpRequest.newBuilder(hello).build(), HttpResponse.BodyHandlers.ofByteArray());
        HttpResponse<byte[]> b = client.send(HttpRequest.newBuilder(bigUri).build(), HttpResponse.BodyHandlers.ofByteArray());
        if (a.statusCode() != 200 || !HttpRequests.HELLO.equals(new String(a.body(), StandardCharsets.UTF_8))
            || b.statusCode() != 200 || !Arrays.equals(b.body(), big)) {
          errors++;
        }
        done += 2;
      } catch (IOException e) {
        errors++;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    return new long[] {done, errors};
  }
}
