package io.portshare.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * CPU time (user + system) a process has used so far, from {@code /proc/PID/stat}: what both sides
 * of a measurement cost, read the same way for the generator, the C tool and the servers. The
 * kernel counts in clock ticks of 1/100 s (USER_HZ), which over a window of seconds is fine.
 */
final class ProcessCpu {

  private static final double SECONDS_PER_TICK = 0.01;

  private ProcessCpu() {}

  /** CPU seconds of {@code pid}, or NaN when it cannot be read (gone, not Linux). */
  static double seconds(long pid) {
    try {
      return parse(Files.readString(Path.of("/proc", Long.toString(pid), "stat")));
    } catch (IOException | RuntimeException e) {
      return Double.NaN;
    }
  }

  /** The sum over {@code pids}; NaN when there are none or one cannot be read. */
  static double seconds(List<Long> pids) {
    if (pids.isEmpty()) {
      return Double.NaN;
    }
    double sum = 0;
    for (long pid : pids) {
      sum += seconds(pid);
    }
    return sum;
  }

  static double self() {
    return seconds(ProcessHandle.current().pid());
  }

  /** utime and stime are fields 14 and 15; the command name (field 2) may hold spaces, so count from its ')'. */
  static double parse(String stat) {
    String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+");
    // f[0] is field 3 (state): field n is f[n - 3].
    return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * SECONDS_PER_TICK;
  }
}
