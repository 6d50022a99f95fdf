package io.portshare.bench.ledger;

import io.portshare.bench.router.RouterRoutes;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;

/**
 * Before a server is loaded on an HTTP column: one request for the column's path, which must be answered
 * 200 with exactly the expected body: the file's bytes, or for the dynamic route {@link RouterRoutes#HELLO}
 * with {@link RouterRoutes#HELLO_TYPE}. wrk counts statuses but reads no body, so without this a server that
 * answers 404, or other bytes, would be measured as if it served the column. The load then fails a round
 * with any answer past 3xx ({@link LedgerTables#round}).
 */
final class AnswerCheck {

  private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(5)).build();

  private AnswerCheck() {}

  /** What is wrong with the server's answer to the column's request, or null when it is the expected one. */
  static String problem(String host, int port, Workload w, Path site) throws IOException, InterruptedException {
    URI uri = URI.create("http://" + host + ":" + port + "/" + w.path());
    HttpResponse<byte[]> r;
    try {
      r = HTTP.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30)).build(),
          HttpResponse.BodyHandlers.ofByteArray());
    } catch (IOException e) {
      return "GET " + uri + " failed: " + e;
    }
    if (r.statusCode() != 200) {
      return "answered GET " + uri + " with " + r.statusCode() + ", not 200";
    }
    byte[] expected = w.dynamic() ? RouterRoutes.HELLO.getBytes(StandardCharsets.UTF_8)
        : Files.readAllBytes(site.resolve(w.path()));
    if (!Arrays.equals(r.body(), expected)) {
      return "answered GET " + uri + " with " + r.body().length + " other bytes than the expected " + expected.length
          + (w.dynamic() ? " (" + quoted(RouterRoutes.HELLO) + ")" : " of " + w.path());
    }
    if (w.dynamic()) {
      String type = r.headers().firstValue("content-type").orElse("");
      if (!type.equalsIgnoreCase(RouterRoutes.HELLO_TYPE)) {
        return "answered GET " + uri + " with content-type " + quoted(type) + ", not " + quoted(RouterRoutes.HELLO_TYPE);
      }
    }
    return null;
  }

  private static String quoted(String s) {
    return "\"" + s.replace("\n", "\\n") + "\"";
  }
}
