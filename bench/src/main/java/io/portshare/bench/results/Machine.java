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

  /** date, host, CPUs, OS, Java, in display order. */
  public static Map<String, String> describe() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("date", LocalDateTime.now().withNano(0).toString());
    m.put("host", hostName());
    m.put("CPUs", Integer.toString(Runtime.getRuntime().availableProcessors()));
    m.put("OS", System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"));
    m.put("Java", System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
    return m;
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

  private static String hostName() {
    try {
      return InetAddress.getLocalHost().getHostName().toLowerCase(Locale.ROOT);
    } catch (IOException e) {
      return "unknown";
    }
  }
}
