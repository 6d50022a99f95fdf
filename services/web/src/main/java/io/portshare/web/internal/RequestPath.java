package io.portshare.web.internal;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Turns the raw path of a request into a path relative to the root, or refuses it. Decoding is done
 * exactly once and strictly: after it, a path that names a parent ({@code ..}), holds a backslash,
 * a control byte (NUL included) or malformed UTF-8 (overlong forms included) is a bad request;
 * one that names a hidden file or directory (a segment starting with a dot) is not found, unless hidden
 * names are served. What comes
 * out has no empty, {@code .} or {@code ..} segment and no leading slash, so resolving it against the
 * root cannot leave the root lexically; symlinks are checked after resolution (see {@link FileCache}).
 */
public record RequestPath(String relative, boolean directory, int refusal) {

  public static final int BAD_REQUEST = 400;
  public static final int NOT_FOUND = 404;

  private static final RequestPath BAD = new RequestPath(null, false, BAD_REQUEST);
  private static final RequestPath HIDDEN = new RequestPath(null, false, NOT_FOUND);

  public boolean refused() {
    return refusal != 0;
  }

  public static RequestPath of(String raw) {
    return of(raw, false);
  }

  /** As {@link #of(String)}; with {@code hidden} true, a segment starting with a dot is a name like any other. */
  public static RequestPath of(String raw, boolean hidden) {
    if (raw == null || raw.isEmpty() || raw.charAt(0) != '/') {
      return BAD;
    }
    byte[] bytes = new byte[raw.length()];
    int n = 0;
    for (int i = 0; i < raw.length(); i++) {
      int c = raw.charAt(i);
      if (c == '%') {
        if (i + 2 >= raw.length()) {
          return BAD;
        }
        int hi = Character.digit(raw.charAt(i + 1), 16);
        int lo = Character.digit(raw.charAt(i + 2), 16);
        if (hi < 0 || lo < 0) {
          return BAD;
        }
        c = hi << 4 | lo;
        i += 2;
      } else if (c > 0xff || c == '#') {
        return BAD; // a fragment is never part of a request target (RFC 9112 section 3.2)
      }
      if (c < 0x20 || c == 0x7f || c == '\\') {
        return BAD;
      }
      bytes[n++] = (byte) c;
    }
    String decoded;
    try {
      CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT);
      CharBuffer chars = utf8.decode(ByteBuffer.wrap(bytes, 0, n));
      decoded = chars.toString();
    } catch (CharacterCodingException e) {
      return BAD;
    }
    StringBuilder relative = new StringBuilder(decoded.length());
    int start = 1;
    while (start <= decoded.length()) {
      int end = decoded.indexOf('/', start);
      if (end < 0) {
        end = decoded.length();
      }
      int len = end - start;
      if (len == 2 && decoded.charAt(start) == '.' && decoded.charAt(start + 1) == '.') {
        return BAD;
      }
      if (!hidden && len > 1 && decoded.charAt(start) == '.') {
        return HIDDEN;
      }
      if (len > 0 && !(len == 1 && decoded.charAt(start) == '.')) {
        if (relative.length() > 0) {
          relative.append('/');
        }
        relative.append(decoded, start, end);
      }
      start = end + 1;
    }
    return new RequestPath(relative.toString(), decoded.endsWith("/"), 0);
  }

  /**
   * The path of a request target, as a Vert.x server takes it: the origin form's up to the query;
   * the absolute form's after its authority ({@code /} when it has none); anything else as it is,
   * which {@link #of} refuses.
   */
  public static String rawPath(String uri) {
    int start = 0;
    if (!uri.isEmpty() && uri.charAt(0) != '/') {
      int scheme = uri.indexOf("://");
      if (scheme >= 0) {
        start = uri.indexOf('/', scheme + 3);
        if (start < 0) {
          return "/";
        }
      }
    }
    int query = uri.indexOf('?', start);
    return uri.substring(start, query < 0 ? uri.length() : query);
  }
}
