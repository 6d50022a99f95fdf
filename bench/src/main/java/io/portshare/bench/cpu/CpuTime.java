package io.portshare.bench.cpu;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * CPU time from {@code /proc/PID/stat}, the one place every benchmark reads it: user and system
 * seconds of a process tree (a JVM, or nginx's master and workers), of given processes, of this JVM,
 * and of this JVM's reaped children ({@code cutime}/{@code cstime}: wrk or the C load tool, once it
 * has exited and been waited for). The kernel counts in clock ticks (USER_HZ, 1/100 s on Linux).
 */
public record CpuTime(double userSeconds, double systemSeconds) {

  private static final int UTIME = 11; // fields counted after the ")" that ends the command name
  private static final long TICKS_PER_SECOND = ticksPerSecond();

  public double seconds() {
    return userSeconds + systemSeconds;
  }

  public CpuTime minus(CpuTime before) {
    return new CpuTime(userSeconds - before.userSeconds, systemSeconds - before.systemSeconds);
  }

  /** The process and all its descendants, as far as they are alive. */
  public static CpuTime ofTree(ProcessHandle root) {
    List<ProcessHandle> all = new ArrayList<>();
    all.add(root);
    root.descendants().forEach(all::add);
    long user = 0;
    long system = 0;
    for (ProcessHandle p : all) {
      long[] t = ticks("/proc/" + p.pid() + "/stat", 0);
      user += t[0];
      system += t[1];
    }
    return new CpuTime(user / (double) TICKS_PER_SECOND, system / (double) TICKS_PER_SECOND);
  }

  /** This JVM's own CPU seconds so far (user + system); NaN where {@code /proc} cannot be read. */
  public static double self() {
    return seconds(List.of(ProcessHandle.current().pid()));
  }

  /** CPU seconds of these processes together; NaN when there are none or one cannot be read (gone, not Linux). */
  public static double seconds(List<Long> pids) {
    if (pids.isEmpty()) {
      return Double.NaN;
    }
    long sum = 0;
    for (long pid : pids) {
      try {
        long[] t = parse(Files.readString(Path.of("/proc", Long.toString(pid), "stat")), 0);
        sum += t[0] + t[1];
      } catch (IOException | RuntimeException e) {
        return Double.NaN;
      }
    }
    return sum / (double) TICKS_PER_SECOND;
  }

  /** CPU time of the children this JVM has waited for, all together. */
  public static CpuTime ofReapedChildren() {
    long[] t = ticks("/proc/self/stat", 2);
    return new CpuTime(t[0] / (double) TICKS_PER_SECOND, t[1] / (double) TICKS_PER_SECOND);
  }

  /** utime and stime ({@code offset} 0) or cutime and cstime ({@code offset} 2) in clock ticks; 0 if gone. */
  static long[] ticks(String statFile, int offset) {
    try {
      return parse(Files.readString(Path.of(statFile)), offset);
    } catch (IOException e) {
      return new long[2]; // the process has exited: it spends nothing more
    }
  }

  static long[] parse(String stat, int offset) {
    String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
    return new long[] {Long.parseLong(f[UTIME + offset]), Long.parseLong(f[UTIME + offset + 1])};
  }

  private static long ticksPerSecond() {
    try {
      Process p = new ProcessBuilder("getconf", "CLK_TCK").redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes()).trim();
      if (p.waitFor(5, TimeUnit.SECONDS) && p.exitValue() == 0) {
        return Long.parseLong(out);
      }
    } catch (IOException | NumberFormatException e) {
      // the Linux default below
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return 100;
  }
}
