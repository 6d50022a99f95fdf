package io.portshare.web.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** One byte range of a Range header against a file of 1000 bytes (RFC 9110 14.1.2), and its If-Range (13.1.5). */
class ByteRangeTest {

  private static final long SIZE = 1000;
  private static final long MODIFIED_SECONDS = 95;
  private static final String ETAG = "\"5f-3e8\"";

  @ParameterizedTest(name = "{0} -> {1}..{2}")
  @CsvSource(delimiter = '|', value = {
      "bytes=0-0|0|0",
      "bytes=0-499|0|499",
      "bytes=500-|500|999",
      "bytes=990-5000|990|999",
      "bytes=-1|999|999",
      "bytes=-200|800|999",
      "bytes=-5000|0|999",
      "BYTES=10 - 20|10|20",
      "bytes=999-999|999|999"})
  void satisfiableRangesAreClippedToTheFile(String header, long first, long last) {
    assertThat(ByteRange.parse(header, SIZE)).containsExactly(first, last);
  }

  @ParameterizedTest(name = "{0} is unsatisfiable")
  @ValueSource(strings = {"bytes=1000-", "bytes=5000-6000", "bytes=-0"})
  void rangesPastTheEndAreUnsatisfiable(String header) {
    assertThat(ByteRange.parse(header, SIZE)).isSameAs(ByteRange.UNSATISFIABLE);
  }

  @ParameterizedTest(name = "{0} is ignored")
  @ValueSource(strings = {"items=0-1", "bytes=", "bytes=5", "bytes=5-1", "bytes=a-b", "bytes=-", "bytes=0-1,5-6",
      "bytes=+1-2", "bytes=99999999999999999999-"})
  void malformedOrMultipleRangesAreIgnored(String header) {
    assertThat(ByteRange.parse(header, SIZE)).isNull();
  }

  @ParameterizedTest(name = "If-Range {0}: the range holds")
  @ValueSource(strings = {"\"5f-3e8\"", " \"5f-3e8\" ", "Thu, 01 Jan 1970 00:01:35 GMT", "Thursday, 01-Jan-70 00:01:35 GMT"})
  void anIfRangeOfTheFilesOwnTagOrDateKeepsTheRange(String ifRange) {
    assertThat(ByteRange.of("bytes=0-9", ifRange, SIZE, ETAG, MODIFIED_SECONDS)).containsExactly(0, 9);
  }

  @ParameterizedTest(name = "If-Range {0}: the whole file")
  @ValueSource(strings = {"\"5f-3e9\"", "W/\"5f-3e8\"", "Thu, 01 Jan 1970 00:01:34 GMT", "Thu, 01 Jan 1970 00:01:36 GMT",
      "not a date"})
  void anIfRangeThatNoLongerHoldsAsksForTheWholeFile(String ifRange) {
    assertThat(ByteRange.of("bytes=0-9", ifRange, SIZE, ETAG, MODIFIED_SECONDS)).isNull();
    assertThat(ByteRange.of("bytes=5000-", ifRange, SIZE, ETAG, MODIFIED_SECONDS)).as("not even 416").isNull();
  }

  @Test
  void withoutIfRangeTheRangeIsAsParsed() {
    assertThat(ByteRange.of("bytes=-1", null, SIZE, ETAG, MODIFIED_SECONDS)).containsExactly(999, 999);
    assertThat(ByteRange.of("bytes=5000-", null, SIZE, ETAG, MODIFIED_SECONDS)).isSameAs(ByteRange.UNSATISFIABLE);
    assertThat(ByteRange.of("bytes=0-1,5-6", null, SIZE, ETAG, MODIFIED_SECONDS)).isNull();
  }

  @ParameterizedTest(name = "{0} of an empty file")
  @ValueSource(strings = {"bytes=0-", "bytes=-1"})
  void anEmptyFileHasNoSatisfiableRange(String header) {
    assertThat(ByteRange.parse(header, 0)).isSameAs(ByteRange.UNSATISFIABLE);
  }
}
