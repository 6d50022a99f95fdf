package io.portshare.bench.results;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** What every run records about where it ran: date, host, CPUs, OS, Java, and how busy the machine was. */
public final class Machine {

  private Machine() {}

  /** commit, date, host, CPUs, OS, Java, network, in display order. */
  public static Map<String, String> describe() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("commit", commit());
    m.put("date", LocalDateTime.now().withNano(0).toString());
    m.put("host", hostName());
    m.put("CPUs", Integer.toString(Runtime.getRuntime().availableProcessors()));
    m.put("OS", System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"));
    m.put("Java", System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
    m.put("network", network(System.getenv(NETNS_ENV), readLong(CONNTRACK_COUNT), readLong(CONNTRACK_MAX)));
    return m;
  }

  /** Set by deploy/lib.sh when it runs the benchmark in a network namespace of its own. */
  static final String NETNS_ENV = "PORTSHARE_BENCH_NETNS";
  private static final Path CONNTRACK_COUNT = Path.of("/proc/sys/net/netfilter/nf_conntrack_count");
  private static final Path CONNTRACK_MAX = Path.of("/proc/sys/net/netfilter/nf_conntrack_max");

  /**
   * Where the loopback connections ran, and whether the kernel tracked them. Tracked connections
   * hold a conntrack entry 120 s after they close; at the close path's ~20,000 connections/s the
   * table fills within seconds and the kernel drops SYNs, so runs stall at a few hundred req/s.
   * Any NAT rule turns tracking on for its namespace (podman's does, for instance).
   */
  static String network(String netns, long tracked, long max) {
    String where = netns == null || netns.isEmpty() ? "this host's network namespace" : "private network namespace " + netns;
    if (tracked < 0) {
      return where + ", no connection tracking";
    }
    if (tracked == 0) {
      return where + ", connection tracking idle (0 entries)";
    }
    return where + ", CONNECTION TRACKING ON: " + tracked + " of " + max
        + " entries at start; close-path figures may stall (deploy/bench.sh runs in a namespace of its own as root)";
  }

  private static long readLong(Path p) {
    try {
      return Long.parseLong(Files.readString(p, StandardCharsets.US_ASCII).trim());
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  /** The 1, 5 and 15 minute load averages from {@code /proc/loadavg}, or "unknown". */
  public static String loadAverage() {
    try {
      String[] f = Files.readString(Path.of("/proc/loadavg"), StandardCharsets.US_ASCII).trim().split("\\s+");
      return f[0] + " " + f[1] + " " + f[2];
    } catch (IOException | RuntimeException e) {
      return "unknown";
    }
  }

  /** The commit the working directory holds, and whether tracked files differ from it. */
  static String commit() {
    try {
      Process p = new ProcessBuilder("git", "rev-parse", "HEAD").redirectErrorStream(true).start();
      String sha = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
      String dirty = new String(new ProcessBuilder("git", "status", "--porcelain", "--untracked-files=no")
          .redirectErrorStream(true).start().getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
      return p.waitFor() == 0 ? sha + (dirty.isEmpty() ? "" : " (with uncommitted changes)") : "unknown (not a git checkout)";
    } catch (IOException e) {
      return "unknown (no git)";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "unknown";
    }
  }

  private static String hostName() {
    try {
      return InetAddress.getLocalHost().getHostName().toLowerCase(Locale.ROOT);
    } catch (IOException e) {
      return "unknown";
    }
  }
}
