package io.portshare.statics.fuzz;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What a request deserves, worked out from its parts by the rules docs/reliability.md states (RFC 9112 and
 * 9110, the limits --max-uri 4 KiB and --max-header-size 8 KiB, the hostile-input table of
 * static-server/README.md), not by asking the server's own code. The fuzz site is hello.txt (12
 * bytes), sub/index.html (11 bytes) and big.bin (200,000 bytes); no index.html at the top.
 */
final class HttpOracle {

  private HttpOracle() {}

  /** Every status some input may deserve: what any answer, of any case, may carry. */
  static final Set<Integer> ANY = Set.of(200, 206, 301, 304, 400, 404, 405, 414, 416, 431, 505);
  /**
   * Returned when the status is the decoder's choice: a request within a few bytes of a size limit
   * (whether line ends count toward it).
   */
  static final int EITHER_SIDE_OF_A_LIMIT = -1;

  /**
   * Returned for a head with a bad field value (or an empty name) that also grows past its limit:
   * 400 or 431, whichever fault the decoder meets first as the bytes arrive.
   */
  static final int TWO_FAULTS = -2;

  private static final int MAX_LINE = 4096;
  private static final int MAX_HEAD = 8192;
  private static final Pattern TOKEN = Pattern.compile("[!#$%&'*+\\-.^_`|~0-9A-Za-z]+");
  /** A field value: visible bytes, spaces and tabs, obs-text; no NUL or other control byte. */
  private static final Pattern VALUE = Pattern.compile("[\\t\\x20-\\x7e\\x80-\\xff]*");
  private static final Pattern HOST = Pattern.compile("[A-Za-z0-9\\-._~%!$&'()*+,;=]*(:\\d*)?");
  private static final Pattern VERSION = Pattern.compile("HTTP/\\d\\.\\d");
  /** Target to status for GET and HEAD, from the hostile-input table and the files above. */
  private static final Map<String, Integer> TARGETS = Map.ofEntries(
      Map.entry("/", 404), // a directory without index.html, no --listing
      Map.entry("/hello.txt", 200), Map.entry("/sub/", 200), Map.entry("/big.bin", 200),
      Map.entry("/sub", 301), // a directory named without its slash
      Map.entry("/missing", 404), Map.entry("//", 404),
      Map.entry("/../etc/passwd", 400), Map.entry("/%2e%2e/%2e%2e/etc/passwd", 400), Map.entry("/sub/../hello.txt", 400),
      Map.entry("/\\..\\x", 400), // ".." in any spelling, backslashes
      Map.entry("/%00", 400), Map.entry("/a%zz", 400), Map.entry("/%", 400), // NUL, malformed %
      Map.entry("/\u00ff\u00fe", 400), // raw bytes that are not UTF-8
      Map.entry("*", 400), // not starting with /
      Map.entry("/hello.txt#frag", 400), // a fragment is never part of a target
      Map.entry("http://x/hello.txt", 200), // absolute form: its path
      Map.entry("/hello.txt?x=1&y=%ff", 200), // the query is not part of the path
      Map.entry("/./hello.txt", 200), // "." segments are removed (RFC 3986 section 5.2.4)
      Map.entry("/hello.txt/", 200)); // the path normalised to the file
  private static final Map<String, Long> SIZES = Map.of("/hello.txt", 12L, "/sub/", 11L, "/big.bin", 200_000L,
      "http://x/hello.txt", 12L, "/hello.txt?x=1&y=%ff", 12L, "/./hello.txt", 12L, "/hello.txt/", 12L);

  /** Whether the oracle knows what this target names (a mutated one may name a file it does not list). */
  static boolean knows(String target) {
    return TARGETS.containsKey(target) || target.startsWith("/aaa") && target.chars().allMatch(c -> c == '/' || c == 'a');
  }

  /** The status the request deserves. */
  static int status(HttpRequests.Request req) {
    // 1. The request line, read first. Before it only empty lines (CR LF) may come (RFC 9112
    //    section 2.2): a control byte there is refused at once, a space is read as part of the
    //    line. Then too long, then malformed. It is split as section 3 lets a recipient, on runs
    //    of whitespace; the version is the rest of the line, which must look like NAME/d.d.
    String requestLine = req.method() + " " + req.target() + " " + req.version();
    if (requestLine.charAt(0) < ' ') {
      return 400;
    }
    int line = requestLine.length();
    if (Math.abs(line - MAX_LINE) <= 2) {
      return EITHER_SIDE_OF_A_LIMIT;
    }
    if (line > MAX_LINE) {
      return 414;
    }
    String[] parts = requestLine.trim().split("[ \\t]+", 3);
    if (parts.length < 3 || !TOKEN.matcher(parts[0]).matches() || !parts[2].matches("\\S+/\\d+\\.\\d+")) {
      return 400;
    }
    String method = parts[0];
    String target = parts[1];
    String version = parts[2];
    // 2. Header lines, one after another (RFC 9112 section 5): the head growing past its limit,
    //    a line not ending in CRLF, a line that is not name ":" value. A line starting with a space
    //    continues the one before (obs-fold, read as a space), and is invalid as the first. An empty
    //    name, or a value with control bytes, is refused once the whole head is read.
    List<String[]> fields = new ArrayList<>();
    int head = 0;
    boolean emptyName = false; // or a bad value
    for (String raw : req.headerLines()) {
      head += raw.length();
      if (Math.abs(head - MAX_HEAD) <= 2 * req.headerLines().size() + 2) {
        return EITHER_SIDE_OF_A_LIMIT;
      }
      if (head > MAX_HEAD) {
        return emptyName ? TWO_FAULTS : 431;
      }
      if (!raw.endsWith("\r\n")) {
        return 400;
      }
      String l = raw.substring(0, raw.length() - 2);
      if (l.startsWith(" ") || l.startsWith("\t")) {
        if (fields.isEmpty()) {
          return 400;
        }
        String[] prev = fields.get(fields.size() - 1);
        prev[1] = (prev[1] + " " + l.trim()).trim();
        continue;
      }
      int colon = l.indexOf(':');
      if (colon == 0) {
        emptyName = true;
      } else if (colon < 0 || !TOKEN.matcher(l.substring(0, colon)).matches()) {
        return 400;
      }
      String value = l.substring(colon + 1).trim();
      emptyName |= !VALUE.matcher(value).matches();
      fields.add(new String[] {l.substring(0, colon).toLowerCase(Locale.ROOT), value});
    }
    if (emptyName) {
      return 400;
    }
    // Several Content-Length lines, or one that is not a length (section 6.3), in any version:
    // the framing is invalid.
    List<String> lengths = values(fields, "content-length");
    boolean badLength = lengths.size() > 1 || lengths.stream().anyMatch(v -> !v.matches("\\d{1,18}"));
    if (badLength) {
      return 400;
    }
    // Transfer-Encoding in anything but HTTP/1.1 is faulty framing (RFC 9112 section 6.1), refused
    // as the head is read, before the version is judged.
    if (!values(fields, "transfer-encoding").isEmpty() && !version.equals("HTTP/1.1")) {
      return 400;
    }
    // 3. The version: HTTP-name is case-sensitive and one digit each side (RFC 9112 section 2.3);
    //    505 for another HTTP version (RFC 9110 section 15.6.6).
    if (!VERSION.matcher(version).matches()) {
      return 400;
    }
    if (!version.equals("HTTP/1.1") && !version.equals("HTTP/1.0")) {
      return 505;
    }
    // 4. What a server must refuse (RFC 9112 sections 3.2 and 6.3).
    List<String> hosts = values(fields, "host");
    if (version.equals("HTTP/1.1") && (hosts.size() != 1 || !HOST.matcher(hosts.get(0)).matches())) {
      return 400;
    }
    List<String> codings = values(fields, "transfer-encoding");
    if (!codings.isEmpty() && !codings.get(codings.size() - 1).replaceFirst(".*,", "").trim().equalsIgnoreCase("chunked")) {
      return 400;
    }
    // 5. The method, then the target.
    if (!method.equals("GET") && !method.equals("HEAD")) {
      return 405;
    }
    Integer byTarget = TARGETS.get(target);
    int status = byTarget != null ? byTarget : target.startsWith("/aaa") ? 404 : 400;
    if (status != 200) {
      return status;
    }
    // 6. A file: If-None-Match wins over If-Modified-Since; then Range (one range, bytes) unless
    //    If-Range names another representation. The first field line of a name is the one read.
    String inm = first(fields, "if-none-match");
    if (inm != null) {
      for (String tag : inm.split(",")) {
        if (tag.trim().equals("*")) {
          return 304;
        }
      }
    }
    // If-Modified-Since here is 1970 or not a date: the files are newer, so it never gives 304.
    String range = first(fields, "range");
    if (range == null || first(fields, "if-range") != null) {
      return 200;
    }
    long size = SIZES.get(target);
    java.util.regex.Matcher m = Pattern.compile("bytes=(\\d{0,18})-(\\d{0,18})").matcher(range);
    if (!m.matches() || (m.group(1).isEmpty() && m.group(2).isEmpty())) {
      return 200; // malformed, several ranges or another unit: ignored
    }
    if (m.group(1).isEmpty()) {
      return Long.parseLong(m.group(2)) == 0 ? 416 : 206; // a suffix
    }
    long from = Long.parseLong(m.group(1));
    if (!m.group(2).isEmpty() && Long.parseLong(m.group(2)) < from) {
      return 200; // last before first: malformed
    }
    return from >= size ? 416 : 206;
  }

  private static List<String> values(List<String[]> fields, String name) {
    List<String> v = new ArrayList<>();
    for (String[] f : fields) {
      if (f[0].equals(name)) {
        v.add(f[1]);
      }
    }
    return v;
  }

  private static String first(List<String[]> fields, String name) {
    List<String> v = values(fields, name);
    return v.isEmpty() ? null : v.get(0);
  }

  /**
   * Whether the bytes hold a whole request head: after the bytes a server skips before a request
   * (control bytes and spaces), a line, then an empty line (lines may end in LF alone).
   */
  static boolean wholeHead(byte[] bytes) {
    int i = 0;
    while (i < bytes.length && ((bytes[i] & 0xff) <= 0x20 || bytes[i] == 0x7f)) {
      i++;
    }
    for (int j = i; j + 1 < bytes.length; j++) {
      if (bytes[j] == '\n' && (bytes[j + 1] == '\n' || (bytes[j + 1] == '\r' && j + 2 < bytes.length && bytes[j + 2] == '\n'))) {
        return true;
      }
    }
    return false;
  }
}
