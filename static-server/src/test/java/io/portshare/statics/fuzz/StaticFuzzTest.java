package io.portshare.statics.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import io.portshare.kit.FuzzRun;
import io.portshare.kit.LogCapture;
import io.portshare.kit.PrometheusText;
import io.portshare.kit.RawExchange;
import io.portshare.runtime.Runtimes;
import io.portshare.runtime.impl.ServiceRuntime;
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
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Random and mutated HTTP requests against a real static server, judged as docs/reliability.md's fuzz
 * section says: an answer arrives unless the bytes end before a whole request head; a request as
 * generated, or mutated with its head still inside what the oracle models, gets exactly the status
 * {@link HttpOracle} works out for it; every status line is
 * HTTP/1.1 (1.0 only answering a 1.0 request) with a status some input deserves, 505 the only 5xx;
 * no answer carries a stack trace or a class name, nothing escapes a handler (no WARN/ERROR log),
 * and a well-behaved client served at the same time sees only correct answers. {@link FuzzRun} says
 * how to run more cases.
 */
class StaticFuzzTest {

  /** The engine under test; {@link StaticFuzzOnVertxTest} runs every case on the other. */
  String engine() {
    return "own";
  }

  /**
   * Whether a case is judged by the status {@link HttpOracle} works out for it: on the own engine,
   * always, as the oracle models its HeadGuard; on another, only where the head was whole and valid
   * and the status is the file decisions' (static-server/README.md, Engines, lists where Vert.x's
   * judgement of a head differs).
   */
  boolean judges(int deserved) {
    return true;
  }

  /** The statuses an answer may carry on this engine. */
  Set<Integer> anyStatus() {
    return HttpOracle.ANY;
  }

  /** Answered by HeadGuard, in HTTP/1.1 whatever the request named. */
  private static final Set<Integer> REFUSALS = Set.of(414, 431, 505);
  /** A status line at the start or after a line end (the files served end in LF). */
  private static final Pattern STATUS_LINE = Pattern.compile("(?:^|\n)HTTP/(\\d\\.\\d) (\\d{3})[ \r]");
  /** 505 answers seen: the only 5xx docs/reliability.md allows, so the 5xx metric must count exactly these. */
  private final AtomicLong fiveOhFives = new AtomicLong();
  /** Mutated or random cases judged by their exact status (their head still inside the oracle's model). */
  private final AtomicLong mutatedJudged = new AtomicLong();
  private static final Pattern LEAK = Pattern.compile("Exception|\tat |java\\.|io\\.netty|io\\.vertx|portshare\\.");

  @TempDir
  static Path root;
  @RegisterExtension
  final Runtimes runtimes = new Runtimes();

  @Test
  void hostileRequestsGetCleanAnswersAndHarmNoOtherClient() throws Exception {
    Files.writeString(root.resolve("hello.txt"), HttpRequests.HELLO);
    Files.createDirectories(root.resolve("sub"));
    Files.writeString(root.resolve("sub/index.html"), "<p>sub</p>\n");
    byte[] big = new byte[200_000];
    new Random(1).nextBytes(big);
    Files.write(root.resolve("big.bin"), big);

    try (LogCapture log = LogCapture.attach()) {
      ServiceRuntime rt = runtimes.start(new StaticService(), "--port", "0", "--admin-port", "0",
          "--host", "127.0.0.1", "--instances", "2", "--mode", "shared", "--root", root.toString(),
          "--header-timeout", "1s", "--idle-timeout", "2s", "--engine", engine());
      FuzzRun.Outcome run = FuzzRun.run(rt.port(), HttpRequests::generate, this::check,
          StaticFuzzTest::describe, (port, stopped) -> wellBehavedClient(port, stopped, big));

      assertThat(run.failures()).as("cases answered badly").isEmpty();
      assertThat(run.served().errors()).as("errors seen by the well-behaved client").isZero();
      assertThat(run.served().exchanges()).as("requests of the well-behaved client").isPositive();
      PrometheusText metrics = PrometheusText.parse(rt.registry().scrape());
      checkVersionRefusals(metrics, fiveOhFives.get());
      assertThat(mutatedJudged.get()).as("mutated cases judged by their exact status").isPositive();
      System.out.println("mutated or random cases judged by their exact status: " + mutatedJudged.get());
      assertThat(log.warningsAndErrors()).as("warnings and errors logged").isEmpty();
    }
  }

  private static String describe(HttpRequests.Case c) {
    String text = new String(c.bytes(), 0, Math.min(200, c.bytes().length), StandardCharsets.ISO_8859_1);
    return c.kind() + "; request starts: " + text.replace("\r", "\\r").replace("\n", "\\n");
  }

  /**
   * Null when the answer is the one the case deserves, else what is wrong with it. An answer must
   * arrive unless the bytes end before a whole request head. Every status line is HTTP/1.1 (HTTP/1.0
   * only for a request that was not refused by its head) and carries a status some input deserves;
   * for a request as generated (not mutated) the first status is exactly {@link HttpOracle}'s.
   */
  private String check(HttpRequests.Case c, int port, Random r) throws IOException {
    byte[] answer = RawExchange.exchange(port, c.bytes(), r, 16, 8192);
    String text = asJudged(new String(answer, StandardCharsets.ISO_8859_1), c.bytes());
    if (c.control()) {
      return text.startsWith("HTTP/1.1 200 ") && text.endsWith("\r\n\r\n" + HttpRequests.HELLO) ? null
          : "control request answered: " + abbreviate(text);
    }
    if (answer.length == 0) {
      return HttpOracle.wholeHead(c.bytes()) && !mayGoUnanswered(c.bytes()) ? "no answer to a whole request head" : null;
    }
    Matcher m = STATUS_LINE.matcher(text);
    if (!m.lookingAt()) {
      return "answer is not HTTP: " + abbreviate(text);
    }
    m.reset();
    List<Integer> statuses = new ArrayList<>();
    while (m.find()) {
      int status = Integer.parseInt(m.group(2));
      statuses.add(status);
      if (!anyStatus().contains(status)) {
        return "status " + status + ": " + abbreviate(text);
      }
      String wrong = statusLine(m.group(1), status, statuses.size() == 1 ? c.first() : null);
      if (wrong != null) {
        return wrong + ": " + abbreviate(text);
      }
    }
    // A request as generated, or a mutated one whose head the oracle still models (a mutation that
    // leaves a request to be served must be served, one that breaks it refused): its exact status.
    HttpRequests.Request judged = c.first() != null ? c.first() : HttpRequests.parse(c.bytes());
    if (judged != null && !judges(HttpOracle.status(judged))) {
      judged = null;
    }
    if (judged != null && c.first() == null) {
      mutatedJudged.incrementAndGet();
    }
    if (judged != null) {
      int deserved = HttpOracle.status(judged);
      boolean either = deserved == HttpOracle.TWO_FAULTS && (statuses.get(0) == 400 || statuses.get(0) == 431);
      if (deserved != HttpOracle.EITHER_SIDE_OF_A_LIMIT && !either && statuses.get(0) != deserved) {
        return "status " + statuses.get(0) + " where " + deserved + " is due: " + abbreviate(text);
      }
    }
    // The only files served hold no such text, so any match came from the server itself.
    Matcher leak = LEAK.matcher(text.replace("\r\nServer: portshare", ""));
    if (leak.find()) {
      return "answer leaks internals (\"" + leak.group() + "\"): " + abbreviate(text);
    }
    fiveOhFives.addAndGet(statuses.stream().filter(st -> st == 505).count());
    return null;
  }

  /** Whether these bytes may get no answer though they hold a whole request head: never on the own engine. */
  boolean mayGoUnanswered(byte[] request) {
    return false;
  }

  /** The answer as judged: as it came, but where another engine's named difference is set aside. */
  String asJudged(String answer, byte[] request) {
    return answer;
  }

  /**
   * What is wrong with a status line of HTTP/{@code version} and {@code status}, or null; {@code first}
   * is the request it answers when it is the first answer to a request as generated, else null.
   * HTTP/1.1, and HTTP/1.0 only answering an HTTP/1.0 request, never for HeadGuard's refusals.
   */
  String statusLine(String version, int status, HttpRequests.Request first) {
    if (!version.equals("1.1") && !version.equals("1.0")) {
      return "an HTTP/" + version + " status line";
    }
    boolean notHttp10 = first != null && !first.version().equals("HTTP/1.0");
    return version.equals("1.0") && (REFUSALS.contains(status) || notHttp10) ? "an HTTP/1.0 status line" : null;
  }

  /**
   * Every 505 a client saw was counted, and every 5xx counted is one of HeadGuard's version refusals
   * (a 505 after a body that does not end in LF is not seen by the scan above).
   */
  void checkVersionRefusals(PrometheusText metrics, long fiveOhFivesSeen) {
    assertThat(metrics.named("portshare_static_requests_total").stream()
        .filter(m -> "5xx".equals(m.labels().get("status"))).mapToDouble(PrometheusText.Sample::value).sum())
        .as("5xx answers counted").isGreaterThanOrEqualTo(fiveOhFivesSeen)
        .isLessThanOrEqualTo(metrics.sum("portshare_static_bad_versions_total"));
    assertThat(fiveOhFivesSeen).as("505s seen (HTTP/2.0 and HTTP/1.2 are generated)").isPositive();
  }

  private static String abbreviate(String s) {
    String t = s.length() > 300 ? s.substring(0, 300) + "..." : s;
    return t.replace("\r", "\\r").replace("\n", "\\n");
  }

  /** Keep-alive GETs of a small and a large file, checking status and body. */
  private static FuzzRun.Served wellBehavedClient(int port, BooleanSupplier stopped, byte[] big) {
    HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(10)).build();
    URI hello = URI.create("http://127.0.0.1:" + port + "/hello.txt");
    URI bigUri = URI.create("http://127.0.0.1:" + port + "/big.bin");
    long done = 0;
    long errors = 0;
    while (!stopped.getAsBoolean()) {
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
    return new FuzzRun.Served(done, errors);
  }
}
