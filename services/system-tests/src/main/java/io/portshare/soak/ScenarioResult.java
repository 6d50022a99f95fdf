package io.portshare.soak;

/** What one scenario did and how it went: the one line soak.sh prints for it. */
public record ScenarioResult(String scenario, String what, long connections, long failures, String rss,
    String detail, boolean passed) {

  static final String HEADER = String.format("%-22s %-6s %12s %9s  %-24s %s", "scenario", "result", "connections",
      "failures", "server RSS", "what");

  String line() {
    return String.format("%-22s %-6s %12d %9d  %-24s %s%s", scenario, passed ? "ok" : "FAIL", connections, failures,
        rss, what, detail.isEmpty() ? "" : " (" + detail + ")");
  }

  static String mib(long bytes) {
    return String.format("%.1f MiB", bytes / 1048576.0);
  }
}
