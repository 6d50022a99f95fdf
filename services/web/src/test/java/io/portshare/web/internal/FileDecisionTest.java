package io.portshare.web.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaders;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What both engines answer a GET or HEAD of a cached file with, from the request's head: a file of
 * {@link #SIZE} bytes modified at {@link #MODIFIED} (entity tag {@code "5f-3e8"}-like) with a
 * {@code .gz} sibling of {@link #GZ_SIZE}. Headers are "Name: value" joined by " & "; an empty
 * cell is none, and -1 a Content-Length the answer lacks.
 */
class FileDecisionTest {

  private static final long SIZE = 1000;
  private static final long GZ_SIZE = 300;
  private static final long MODIFIED = Instant.parse("2026-12-01T04:05:06Z").toEpochMilli();
  private static final String AT = "Tue, 01 Dec 2026 04:05:06 GMT";
  private static final String BEFORE = "Tue, 01 Dec 2026 04:05:05 GMT";
  private static final CachedFile GZ = new CachedFile(Path.of("a.js.gz"), GZ_SIZE, MODIFIED, "text/javascript",
      null, null, 0);
  private static final CachedFile FILE = new CachedFile(Path.of("a.js"), SIZE, MODIFIED, "text/javascript",
      null, GZ, 0);
  private static final String ETAG = FILE.etag;
  private static final String GZ_ETAG = GZ.etag;

  @ParameterizedTest(name = "{0} {1}: {2} {3}")
  @CsvSource(delimiter = '|', nullValues = "", value = {
      // method | headers | status | representation | Content-Range | Content-Length | offset | body bytes
      "GET ||                                              200 | plain |                 | 1000 | 0   | 1000",
      "HEAD ||                                             200 | plain |                 | 1000 | 0   | 0",
      // The .gz sibling by Accept-Encoding; q=0 refuses it.
      "GET  | Accept-Encoding: gzip, br |                  200 | gzip  |                 | 300  | 0   | 300",
      "GET  | Accept-Encoding: gzip;q=0 |                  200 | plain |                 | 1000 | 0   | 1000",
      "HEAD | Accept-Encoding: gzip |                      200 | gzip  |                 | 300  | 0   | 0",
      // Conditions, against the representation the client gets.
      "GET  | If-None-Match: ETAG |                        304 | plain |                 | -1   | 0   | 0",
      "GET  | If-None-Match: ETAG & Accept-Encoding: gzip | 200 | gzip  |                 | 300  | 0   | 300",
      "GET  | If-None-Match: GZ_ETAG & Accept-Encoding: gzip | 304 | gzip |             | -1   | 0   | 0",
      "GET  | If-Modified-Since: AT |                      304 | plain |                 | -1   | 0   | 0",
      "GET  | If-Unmodified-Since: BEFORE |                412 | plain |                 | 0    | 0   | 0",
      "GET  | If-Unmodified-Since: BEFORE & Range: bytes=0-9 | 412 | plain |             | 0    | 0   | 0",
      // One range: 206 with its part, 416 past the end; If-Range decides whether it counts.
      "GET  | Range: bytes=10-19 |                         206 | plain | bytes 10-19/1000 | 10  | 10  | 10",
      "HEAD | Range: bytes=10-19 |                         206 | plain | bytes 10-19/1000 | 10  | 10  | 0",
      "GET  | Range: bytes=-100 |                          206 | plain | bytes 900-999/1000 | 100 | 900 | 100",
      "GET  | Range: bytes=990- |                          206 | plain | bytes 990-999/1000 | 10 | 990 | 10",
      "GET  | Range: bytes=0- |                            206 | plain | bytes 0-999/1000 | 1000 | 0   | 1000",
      "GET  | Range: bytes=1000- |                         416 | plain | bytes */1000    | 0    | 0   | 0",
      "GET  | Range: bytes=0-1,5-6 |                       200 | plain |                 | 1000 | 0   | 1000",
      "GET  | Range: lines=1-2 |                           200 | plain |                 | 1000 | 0   | 1000",
      "GET  | Range: bytes=0-9 & If-Range: ETAG |          206 | plain | bytes 0-9/1000  | 10   | 0   | 10",
      "GET  | Range: bytes=0-9 & If-Range: \"other\" |     200 | plain |                 | 1000 | 0   | 1000",
      "GET  | Range: bytes=0-9 & If-Range: AT |            206 | plain | bytes 0-9/1000  | 10   | 0   | 10",
      "GET  | Range: bytes=0-9 & If-Range: BEFORE |        200 | plain |                 | 1000 | 0   | 1000",
      "GET  | Range: bytes=0-9 & Accept-Encoding: gzip |   206 | gzip  | bytes 0-9/300   | 10   | 0   | 10",
      "GET  | Range: bytes=300- & Accept-Encoding: gzip |  416 | gzip  | bytes */300     | 0    | 0   | 0",
      // Conditions come before the range.
      "GET  | Range: bytes=0-9 & If-None-Match: ETAG |     304 | plain |                 | -1   | 0   | 0"})
  void decides(String method, String headers, int status, String representation, String contentRange,
      long contentLength, long offset, long bodyLength) {
    FileDecision d = FileDecision.of(FILE, method.equals("HEAD"), request(headers)::get);

    assertThat(d.status).as("status").isEqualTo(status);
    assertThat(d.rep).as("representation").isSameAs(representation.equals("gzip") ? GZ : FILE);
    assertThat(d.gzip).as("Content-Encoding: gzip").isEqualTo(representation.equals("gzip"));
    assertThat(d.vary).as("Vary: Accept-Encoding, the file having a sibling").isTrue();
    assertThat(d.typed).as("Content-Type").isEqualTo(status == 200 || status == 206);
    assertThat(d.contentRange).as("Content-Range").isEqualTo(contentRange);
    assertThat(d.contentLength).as("Content-Length").isEqualTo(contentLength);
    assertThat(d.offset).as("offset").isEqualTo(offset);
    assertThat(d.bodyLength).as("body bytes").isEqualTo(bodyLength);
  }

  @ParameterizedTest(name = "{0}: no Vary, the plain file")
  @NullSource
  @ValueSource(strings = "Accept-Encoding: gzip")
  void aFileWithoutASiblingVariesByNothing(String headers) {
    CachedFile alone = new CachedFile(Path.of("b.txt"), 5, MODIFIED, "text/plain", new byte[5], null, 0);

    FileDecision d = FileDecision.of(alone, false, request(headers)::get);

    assertThat(d.rep).isSameAs(alone);
    assertThat(d.vary).isFalse();
    assertThat(d.gzip).isFalse();
    assertThat(d.fromMemory()).isTrue();
  }

  private static HttpHeaders request(String headers) {
    HttpHeaders h = new DefaultHttpHeaders();
    if (headers == null) {
      return h;
    }
    for (String field : headers.split(" & ")) {
      int colon = field.indexOf(':');
      String value = field.substring(colon + 1).trim().replace("GZ_ETAG", GZ_ETAG).replace("ETAG", ETAG)
          .replace("BEFORE", BEFORE).replace("AT", AT);
      h.add(field.substring(0, colon).trim(), value);
    }
    return h;
  }
}
