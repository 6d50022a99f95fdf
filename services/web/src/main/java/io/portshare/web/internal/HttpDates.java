package io.portshare.web.internal;

import io.netty.handler.codec.DateFormatter;
import java.util.Date;

/**
 * HTTP dates (RFC 9110 section 5.6.7), by Netty's {@link DateFormatter}: written as IMF-fixdate
 * ({@code Tue, 01 Dec 2026 04:05:06 GMT}, two-digit day), read in all three forms a recipient must
 * accept (IMF-fixdate, RFC 850 {@code Tuesday, 01-Dec-26 04:05:06 GMT}, asctime
 * {@code Tue Dec  1 04:05:06 2026}).
 */
public final class HttpDates {

  private HttpDates() {}

  public static String format(long epochMillis) {
    return DateFormatter.format(new Date(epochMillis));
  }

  /** Seconds since the epoch, or -1 when the value is not a date (then the header is ignored, per RFC 9110). */
  public static long parseSeconds(String value) {
    Date d = DateFormatter.parseHttpDate(value.trim());
    return d == null ? -1 : d.getTime() / 1000;
  }
}
