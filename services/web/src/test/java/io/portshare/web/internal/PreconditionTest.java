package io.portshare.web.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The conditional headers of a GET against a file last modified at {@link #MODIFIED} with entity
 * tag {@link #ETAG}, in RFC 9110 section 13.2.2's order. An empty cell is a header the request lacks.
 */
class PreconditionTest {

  private static final String ETAG = "\"5f-400\"";
  private static final long MODIFIED = Instant.parse("2026-12-01T04:05:06Z").getEpochSecond();
  private static final String AT = "Tue, 01 Dec 2026 04:05:06 GMT";
  private static final String BEFORE = "Tue, 01 Dec 2026 04:05:05 GMT";
  private static final String AFTER = "Tue, 01 Dec 2026 04:05:07 GMT";

  @ParameterizedTest(name = "If-Unmodified-Since {0}, If-None-Match {1}, If-Modified-Since {2}: {3}")
  @CsvSource(delimiter = '|', nullValues = "", value = {
      "||| SEND",
      // If-None-Match: any listed tag, weak or strong, or *.
      "|\"5f-400\"|| NOT_MODIFIED",
      "|W/\"5f-400\"|| NOT_MODIFIED",
      "|\"a\", \"5f-400\"|| NOT_MODIFIED",
      "|*|| NOT_MODIFIED",
      "|\"other\"|| SEND",
      "|\"5f-401\"|| SEND",
      // If-Modified-Since: not modified at or after the date; no date is no condition.
      "||" + AT + "| NOT_MODIFIED",
      "||" + AFTER + "| NOT_MODIFIED",
      "||" + BEFORE + "| SEND",
      "||Tuesday, 01-Dec-26 04:05:06 GMT| NOT_MODIFIED",
      "||yesterday| SEND",
      // If-None-Match wins over If-Modified-Since, either way.
      "|\"other\"|" + AT + "| SEND",
      "|\"5f-400\"|" + BEFORE + "| NOT_MODIFIED",
      // If-Unmodified-Since: 412 when the file changed after the date; it is checked first.
      BEFORE + "||| FAILED",
      AT + "||| SEND",
      AFTER + "||| SEND",
      "not a date||| SEND",
      BEFORE + "|\"5f-400\"|| FAILED",
      AT + "|\"5f-400\"|| NOT_MODIFIED"})
  void decides(String ifUnmodifiedSince, String ifNoneMatch, String ifModifiedSince, Precondition expected) {
    assertThat(Precondition.of(ifUnmodifiedSince, ifNoneMatch, ifModifiedSince, ETAG, MODIFIED)).isEqualTo(expected);
  }
}
