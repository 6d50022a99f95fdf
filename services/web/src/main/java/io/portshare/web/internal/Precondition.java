package io.portshare.web.internal;

/**
 * What the conditional headers of a GET or HEAD make of its answer, in RFC 9110 section 13.2.2's
 * order (If-Match is not supported): send the representation, answer 304, or refuse with 412.
 */
public enum Precondition {
  /** No condition stops it: send the representation (a Range may still make the answer 206). */
  SEND,
  /** 304: the client's copy is current. */
  NOT_MODIFIED,
  /** 412: the file changed after If-Unmodified-Since. */
  FAILED;

  /**
   * Each argument is a header's value, or null when the request has none; {@code etag} and
   * {@code modifiedSeconds} are the representation's.
   */
  public static Precondition of(String ifUnmodifiedSince, String ifNoneMatch, String ifModifiedSince, String etag,
      long modifiedSeconds) {
    if (unmodifiedSinceFails(ifUnmodifiedSince, modifiedSeconds)) {
      return FAILED;
    }
    return notModified(ifNoneMatch, ifModifiedSince, etag, modifiedSeconds) ? NOT_MODIFIED : SEND;
  }

  /** RFC 9110 13.1.4: the file changed after the date given; a value that is not a date is ignored. */
  private static boolean unmodifiedSinceFails(String ifUnmodifiedSince, long modifiedSeconds) {
    if (ifUnmodifiedSince == null) {
      return false;
    }
    long since = HttpDates.parseSeconds(ifUnmodifiedSince);
    return since >= 0 && modifiedSeconds > since;
  }

  /** RFC 9110 13.2.2: If-None-Match wins over If-Modified-Since. */
  private static boolean notModified(String ifNoneMatch, String ifModifiedSince, String etag, long modifiedSeconds) {
    if (ifNoneMatch != null) {
      for (String tag : ifNoneMatch.split(",")) {
        String t = tag.trim();
        if (t.startsWith("W/")) {
          t = t.substring(2);
        }
        if (t.equals("*") || t.equals(etag)) {
          return true;
        }
      }
      return false;
    }
    if (ifModifiedSince != null) {
      long since = HttpDates.parseSeconds(ifModifiedSince);
      return since >= 0 && modifiedSeconds <= since;
    }
    return false;
  }
}
