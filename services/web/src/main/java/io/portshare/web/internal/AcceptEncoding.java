package io.portshare.web.internal;

/** Whether an {@code Accept-Encoding} header lets a client have the gzip representation. */
public final class AcceptEncoding {

  private AcceptEncoding() {}

  /** True when the header names gzip with no weight or a weight above zero; false when it is null. */
  public static boolean allowsGzip(String acceptEncoding) {
    if (acceptEncoding == null) {
      return false;
    }
    int i = acceptEncoding.indexOf("gzip");
    if (i < 0) {
      return false;
    }
    int end = acceptEncoding.indexOf(',', i);
    String param = acceptEncoding.substring(i + 4, end < 0 ? acceptEncoding.length() : end).replace(" ", "");
    return !param.startsWith(";q=0") || param.matches(";q=0\\.0*[1-9].*");
  }
}
