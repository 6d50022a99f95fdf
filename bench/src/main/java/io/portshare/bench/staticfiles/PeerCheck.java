package io.portshare.bench.staticfiles;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/** Before any measurement: each server answers each path with 200 and exactly the file's bytes. */
public final class PeerCheck {

  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private PeerCheck() {}

  /** Throws naming the server, path and first difference when an answer is not the file. */
  public static void verify(String name, String host, int port, Path root, List<String> paths)
      throws IOException, InterruptedException {
    for (String p : paths) {
      URI uri = URI.create("http://" + host + ":" + port + "/" + p);
      HttpResponse<InputStream> r = HTTP.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(60)).build(),
          HttpResponse.BodyHandlers.ofInputStream());
      try (InputStream body = new BufferedInputStream(r.body());
          InputStream file = new BufferedInputStream(Files.newInputStream(root.resolve(p)))) {
        if (r.statusCode() != 200) {
          throw new IOException(name + " answered " + uri + " with " + r.statusCode() + ", not 200");
        }
        long at = firstDifference(body, file);
        if (at >= 0) {
          throw new IOException(name + " served other bytes than " + root.resolve(p) + " for " + uri
              + " (first difference at byte " + at + ")");
        }
      }
    }
  }

  /** The offset of the first byte where the streams differ (a shorter stream differs at its end), or -1. */
  static long firstDifference(InputStream a, InputStream b) throws IOException {
    long at = 0;
    while (true) {
      int x = a.read();
      int y = b.read();
      if (x != y) {
        return at;
      }
      if (x < 0) {
        return -1;
      }
      at++;
    }
  }
}
