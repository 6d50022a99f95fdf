package io.portshare.statics;

/** One byte range of a {@code Range} header (RFC 9110 14.1). Several ranges are answered with the whole file. */
final class ByteRange {

  static final long[] UNSATISFIABLE = new long[0];

  private ByteRange() {}

  /**
   * The first and last byte asked for, clipped to the file; {@link #UNSATISFIABLE} when no byte of
   * the file is asked for; null when the header is to be ignored (not bytes, malformed, several ranges).
   */
  static long[] parse(String header, long size) {
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
