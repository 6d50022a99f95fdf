package io.portshare.bench.ledger;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a server JVM says about itself through the JDK's tools, outside any timed window: bytes
 * allocated per thread ({@code jcmd PID Thread.print -e}, as {@code ThreadMXBean} counts them),
 * time spent in GC ({@code jstat -gc}, read from the JVM's shared performance counters), and a GC on
 * demand ({@code jcmd PID GC.run}) before a resident-memory reading.
 */
final class JvmProbe {

  private static final Pattern THREAD = Pattern.compile("(?m)^\"(.*)\" .*? allocated=(\\d+)([BKMG])");

  private final String jdkBin;

  /** {@code java}: the launcher the servers run on; jcmd and jstat are beside it. */
  JvmProbe(String java) {
    int slash = java.lastIndexOf('/');
    this.jdkBin = slash < 0 ? "" : java.substring(0, slash + 1);
  }

  /** Bytes each live thread has allocated so far, by thread name (names that repeat are summed). */
  Map<String, Long> allocatedByThread(long pid) throws IOException {
    return parseAllocated(run(List.of(jdkBin + "jcmd", Long.toString(pid), "Thread.print", "-e")));
  }

  static Map<String, Long> parseAllocated(String dump) {
    Map<String, Long> out = new LinkedHashMap<>();
    Matcher m = THREAD.matcher(dump);
    while (m.find()) {
      long scale = switch (m.group(3)) {
        case "K" -> 1L << 10;
        case "M" -> 1L << 20;
        case "G" -> 1L << 30;
        default -> 1;
      };
      out.merge(m.group(1), Long.parseLong(m.group(2)) * scale, Long::sum);
    }
    return out;
  }

  /** Seconds spent in GC so far (jstat's GCT: young, full and concurrent pauses together). */
  double gcSeconds(long pid) throws IOException {
    return parseGcSeconds(run(List.of(jdkBin + "jstat", "-gc", Long.toString(pid))));
  }

  static double parseGcSeconds(String jstat) {
    String[] lines = jstat.strip().split("\n");
    if (lines.length < 2) {
      throw new IllegalStateException("jstat printed no figures: " + jstat.strip());
    }
    String[] head = lines[0].trim().split("\\s+");
    String[] values = lines[lines.length - 1].trim().split("\\s+");
    for (int i = 0; i < head.length; i++) {
      if (head[i].equals("GCT")) {
        return Double.parseDouble(values[i]);
      }
    }
    throw new IllegalStateException("no GCT column in jstat's output: " + lines[0]);
  }

  void gc(long pid) throws IOException {
    run(List.of(jdkBin + "jcmd", Long.toString(pid), "GC.run"));
  }

  private static String run(List<String> cmd) throws IOException {
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    try {
      if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
        p.destroyForcibly();
        throw new IOException(String.join(" ", cmd) + " failed: " + out.strip());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
    return out;
  }
}
