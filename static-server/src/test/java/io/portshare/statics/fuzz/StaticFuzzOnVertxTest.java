package io.portshare.statics.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import io.portshare.kit.PrometheusText;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;

/**
 * {@link StaticFuzzTest} with {@code --engine vertx}: every case gets an answer, no answer leaks
 * internals, nothing is logged, the well-behaved client is unharmed, and a request whose head is
 * whole and valid gets the status of the file decisions. Where Vert.x judges a head itself the oracle
 * (a model of the own engine's HeadGuard) is not asked, and these differences are allowed, each
 * listed in static-server/README.md, Engines: another HTTP version is answered 501 in that version,
 * not counted by the service; a head Netty's decoder refuses may be answered in HTTP/1.0, or, when
 * the request line's version is no HTTP version at all, with that token in place of one
 * ({@code XTTP/1.1 400 Bad Request}): Vert.x answers in the version the request named; a request
 * followed by bytes Vert.x's decoder refuses (a body that is no chunk, a second head) may be closed
 * with no answer, where the own engine answers the first and then closes.
 */
class StaticFuzzOnVertxTest extends StaticFuzzTest {

  /** The statuses the file decisions give a request whose head was accepted. */
  private static final Set<Integer> DECISIONS = Set.of(200, 206, 301, 304, 404, 405, 412, 416);

  @Override
  String engine() {
    return "vertx";
  }

  @Override
  boolean judges(int deserved) {
    return DECISIONS.contains(deserved);
  }

  @Override
  Set<Integer> anyStatus() {
    Set<Integer> any = new HashSet<>(HttpOracle.ANY);
    any.add(501);
    return any;
  }

  @Override
  String statusLine(String version, int status, HttpRequests.Request first) {
    // A refused head: Netty's decoder makes it an HTTP/1.0 request (or one of the version it named).
    if (status == 501 || ((status == 400 || status == 414 || status == 431) && !version.equals("1.1"))) {
      return null;
    }
    return super.statusLine(version, status, first);
  }

  /** A 400 or 501 whose status line repeats the request's own version token is judged as HTTP/1.1's. */
  @Override
  String asJudged(String answer, byte[] request) {
    String head = new String(request, 0, Math.min(request.length, 8192), StandardCharsets.ISO_8859_1);
    int end = head.indexOf('\n');
    String[] line = (end < 0 ? head : head.substring(0, end)).trim().split(" +");
    String token = line.length >= 3 ? line[line.length - 1] : "";
    // Netty upper-cases the token it repeats.
    int n = token.length();
    if (n > 0 && !token.startsWith("HTTP/") && answer.length() > n + 5 && answer.substring(0, n).equalsIgnoreCase(token)
        && (answer.startsWith(" 400 ", n) || answer.startsWith(" 501 ", n))) {
      return "HTTP/1.1" + answer.substring(token.length());
    }
    return answer;
  }

  /** Bytes after the first head: a body or a second request, which Vert.x may refuse before answering. */
  @Override
  boolean mayGoUnanswered(byte[] request) {
    String text = new String(request, StandardCharsets.ISO_8859_1);
    int end = text.indexOf("\r\n\r\n");
    return end >= 0 && end + 4 < text.length();
  }

  @Override
  void checkVersionRefusals(PrometheusText metrics, long fiveOhFivesSeen) {
    assertThat(fiveOhFivesSeen).as("505s seen: Vert.x answers 501").isZero();
    assertThat(metrics.sum("portshare_static_bad_versions_total")).as("versions refused, counted").isZero();
  }
}
