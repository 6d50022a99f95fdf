package io.portshare.statics;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/** HTTP dates (RFC 9110 IMF-fixdate), to write and to read. */
final class HttpDates {

  private static final DateTimeFormatter FORMAT = DateTimeFormatter.RFC_1123_DATE_TIME.withZone(ZoneOffset.UTC);

  private HttpDates() {}

  static String format(long epochMillis) {
    return FORMAT.format(Instant.ofEpochMilli(epochMillis));
  }

  /** Seconds since the epoch, or -1 when the value is not a date (then the header is ignored, per RFC 9110). */
  static long parseSeconds(String value) {
    try {
      return ZonedDateTime.parse(value.trim(), DateTimeFormatter.RFC_1123_DATE_TIME).toEpochSecond();
    } catch (DateTimeParseException e) {
      return -1;
    }
  }
}
