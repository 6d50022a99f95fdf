package io.portshare.kit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A running process read from outside, by its pid: /proc for its memory and descriptors, jcmd for
 * its heap. A {@link ServiceProcess} is read through its {@link ServiceProcess#pid()}.
 */
public final class ProcessReadings {

  private static final Pattern HEAP_LINE = Pattern.compile(" total \\d+K, used (\\d+)K");

  private ProcessReadings() {}

  /** Resident set size of any process, from /proc; -1 when gone or not Linux. */
  public static long rssBytes(long pid) {
    try {
      for (String l : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
        if (l.startsWith("VmRSS:")) {
          return Long.parseLong(l.replaceAll("[^0-9]", "")) * 1024;
        }
      }
    } catch (IOException | RuntimeException e) {
      // Gone, or not Linux.
    }
    return -1;
  }

  /** Open file descriptors, from /proc: each connection is one. -1 when gone or not Linux. */
  public static long openFds(long pid) {
    try (Stream<Path> s = Files.list(Path.of("/proc/" + pid + "/fd"))) {
      return s.count();
    } catch (IOException e) {
      return -1;
    }
  }

  /**
   * Heap in use right after a full GC: jcmd GC.run, then jcmd GC.heap_info, whose figure nothing but
   * the two commands allocates into. (The service's own heap meter, read over HTTP, counted the
   * young objects its scrape had just made: hundreds of KiB that moved from one reading to the next.)
   */
  public static long heapAfterGc(long pid) throws IOException, InterruptedException {
    jcmd(pid, "GC.run");
    return heapUsed(jcmd(pid, "GC.heap_info"));
  }

  /** The heap's "used" of GC.heap_info: every generation's line before Metaspace's, summed (G1 has one). */
  static long heapUsed(String heapInfo) {
    long kib = 0;
    boolean found = false;
    for (String line : heapInfo.split("\n")) {
      if (line.strip().startsWith("Metaspace")) {
        break;
      }
      Matcher m = HEAP_LINE.matcher(line);
      if (m.find()) {
        kib += Long.parseLong(m.group(1));
        found = true;
      }
    }
    if (!found) {
      throw new IllegalStateException("no heap figure in jcmd GC.heap_info's output:\n" + heapInfo);
    }
    return kib << 10;
  }

  private static String jcmd(long pid, String command) throws IOException, InterruptedException {
    Process jcmd = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
        Long.toString(pid), command).redirectErrorStream(true).start();
    String out = new String(jcmd.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!jcmd.waitFor(60, TimeUnit.SECONDS) || jcmd.exitValue() != 0) {
      throw new IOException("jcmd " + pid + " " + command + " failed: " + out);
    }
    return out;
  }
}
