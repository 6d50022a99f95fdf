package io.portshare.runtime.net;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The kernel's count of connections a full accept queue turned away (TcpExt ListenOverflows, and
 * ListenDrops, which also counts SYNs dropped for other reasons), from /proc/net/netstat, read when
 * scraped. The counts are the network namespace's: a pod's own, a host's for all its listeners.
 * A queue that overflows is a service that accepts slower than connections come, which no counter
 * of the service can see, since those connections never reach it.
 */
public final class ListenOverflows {

  private static final Path NETSTAT = Path.of("/proc/net/netstat");

  private ListenOverflows() {}

  /** Registers both counters where /proc/net/netstat has them (Linux); nothing elsewhere. */
  public static void register(MeterRegistry registry) {
    if (read("ListenOverflows") < 0) {
      return;
    }
    FunctionCounter.builder("portshare.listen.overflows", NETSTAT, p -> Math.max(0, read("ListenOverflows")))
        .description("Connections turned away by a full accept queue in this network namespace (TcpExt ListenOverflows)")
        .register(registry);
    FunctionCounter.builder("portshare.listen.drops", NETSTAT, p -> Math.max(0, read("ListenDrops")))
        .description("SYNs and connections dropped by listeners in this network namespace (TcpExt ListenDrops)")
        .register(registry);
  }

  /** One TcpExt field: a header line of names, then a line of values; -1 where it cannot be read. */
  static long read(String field) {
    try {
      List<String> lines = Files.readAllLines(NETSTAT);
      for (int i = 0; i + 1 < lines.size(); i++) {
        if (lines.get(i).startsWith("TcpExt:") && lines.get(i + 1).startsWith("TcpExt:")) {
          String[] names = lines.get(i).split(" ");
          String[] values = lines.get(i + 1).split(" ");
          for (int k = 1; k < names.length && k < values.length; k++) {
            if (names[k].equals(field)) {
              return Long.parseLong(values[k]);
            }
          }
        }
      }
    } catch (IOException | RuntimeException e) {
      // Not Linux, or no procfs here.
    }
    return -1;
  }
}
