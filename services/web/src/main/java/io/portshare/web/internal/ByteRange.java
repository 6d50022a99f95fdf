package io.portshare.web.internal;

/**
 * The range a GET asks for (RFC 9110 14.1): one byte range of a {@code Range} header, when its
 * {@code If-Range} holds. A range is answered 206, {@link #UNSATISFIABLE} 416, null (no range, or
 * one to ignore) 200 with the whole file. Several ranges are answered with the whole file.
 */
public final class ByteRange {

  public static final long[] UNSATISFIABLE = new long[0];

  private ByteRange() {}

  /**
   * The range a request with a {@code Range} header asks for, as {@link #parse} gives it, or null
   * (send the whole file) when its {@code If-Range} (null when absent) no longer holds.
   */
  public static long[] of(String range, String ifRange, long size, String etag, long modifiedSeconds) {
    return ifRangeHolds(ifRange, etag, modifiedSeconds) ? parse(range, size) : null;
  }

  /** RFC 9110 13.1.5: an entity tag must match exactly (a strong one), a date be the file's own. */
  private static boolean ifRangeHolds(String ifRange, String etag, long modifiedSeconds) {
    if (ifRange == null) {
      return true;
    }
    String v = ifRange.trim();
    if (v.startsWith("\"")) {
      return v.equals(etag);
    }
    return HttpDates.parseSeconds(v) == modifiedSeconds;
  }

  /**
   * The first and last byte asked for, clipped to the file; {@link #UNSATISFIABLE} when no byte of
   * the file is asked for; null when the header is to be ignored (not bytes, malformed, several ranges).
   */
  public static long[] parse(String header, long size) {
    String h = header.trim();
    if (h.length() < 7 || !h.regionMatches(true, 0, "bytes=", 0, 6) || h.indexOf(',') >= 0) {
      return null;
    }
    String spec = h.substring(6).trim();
    int dash = spec.indexOf('-');
    if (dash < 0) {
      return null;
    }
    String a = spec.substring(0, dash).trim();
    String b = spec.substring(dash + 1).trim();
    try {
      if (a.isEmpty()) {
        if (b.isEmpty() || !digits(b)) {
          return null;
        }
        long suffix = Long.parseLong(b);
        if (suffix == 0 || size == 0) {
          return UNSATISFIABLE;
        }
        return new long[] {Math.max(0, size - suffix), size - 1};
      }
      if (!digits(a) || (!b.isEmpty() && !digits(b))) {
        return null;
      }
      long first = Long.parseLong(a);
      long last = b.isEmpty() ? Long.MAX_VALUE : Long.parseLong(b);
      if (last < first) {
        return null;
      }
      if (first >= size) {
        return UNSATISFIABLE;
      }
      return new long[] {first, Math.min(last, size - 1)};
    } catch (NumberFormatException e) {
      return null; // more digits than a long holds
    }
  }

  private static boolean digits(String s) {
    for (int i = 0; i < s.length(); i++) {
      if (s.charAt(i) < '0' || s.charAt(i) > '9') {
        return false;
      }
    }
    return true;
  }
}
