package io.portshare.bench.staticfiles;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The nginx peer's configuration: {@code bench/peers/nginx-static.conf.template} with its
 * {@code @NAME@} placeholders filled in. A placeholder left without a value is an error, so a
 * template and driver that drift apart fail before nginx starts.
 */
public final class NginxConfig {

  private static final Pattern PLACEHOLDER = Pattern.compile("@([A-Z_]+)@");

  private NginxConfig() {}

  /**
   * @param run directory for the pid file, error log and temp paths
   * @param root the site nginx serves
   */
  public static String render(String template, String run, String root, int port, int workers, boolean sendfile) {
    return render(template, run, root, port, workers, sendfile, true);
  }

  /** {@code reuseport} false: one listening socket, opened by the master, that every worker accepts on. */
  public static String render(String template, String run, String root, int port, int workers, boolean sendfile,
      boolean reuseport) {
    return fill(template, Map.of("RUN", run, "ROOT", root, "PORT", Integer.toString(port),
        "WORKERS", Integer.toString(workers), "SENDFILE", sendfile ? "on" : "off",
        "REUSEPORT", reuseport ? " reuseport" : ""));
  }

  static String fill(String template, Map<String, String> values) {
    Matcher m = PLACEHOLDER.matcher(template);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String v = values.get(m.group(1));
      if (v == null) {
        throw new IllegalArgumentException("nginx template: no value for @" + m.group(1) + "@");
      }
      m.appendReplacement(out, Matcher.quoteReplacement(v));
    }
    m.appendTail(out);
    return out.toString();
  }
}
