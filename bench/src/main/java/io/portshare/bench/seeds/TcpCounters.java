package io.portshare.bench.seeds;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The kernel's TCP counters of this network namespace ({@code /proc/net/netstat} and
 * {@code /proc/net/snmp}, as {@code nstat} reads them), so that a storm's lost connections can be
 * told apart by where the kernel dropped them: a full accept queue ({@code ListenOverflows}), a SYN
 * dropped before it ({@code ListenDrops} counts both), a client that had to send its SYN again
 * ({@code TCPSynRetrans}), a reset for data that arrived after close ({@code TCPAbortOnData}).
 * The bench runs in a namespace of its own, so between two readings the one server under load is
 * the only listener these counters see.
 */
final class TcpCounters {

  static final List<String> NAMES = List.of("ListenOverflows", "ListenDrops", "TCPSynRetrans", "TCPAbortOnData");

  private final Map<String, Long> values;

  private TcpCounters(Map<String, Long> values) {
    this.values = values;
  }

  /** This namespace's counters now, or an empty reading where /proc/net has no such files. */
  static TcpCounters read() {
    Map<String, Long> all = new HashMap<>();
    for (String file : List.of("/proc/net/netstat", "/proc/net/snmp")) {
      Path p = Path.of(file);
      if (!Files.isReadable(p)) {
        continue;
      }
      try {
        all.putAll(parse(Files.readAllLines(p)));
      } catch (IOException e) {
        // A counter not read is reported missing (NaN), never as zero.
      }
    }
    return new TcpCounters(all);
  }

  /** {@code Prefix: Name Name…} lines each followed by {@code Prefix: value value…}. */
  static Map<String, Long> parse(List<String> lines) {
    Map<String, Long> out = new HashMap<>();
    for (int i = 0; i + 1 < lines.size(); i += 2) {
      String[] names = lines.get(i).trim().split("\\s+");
      String[] numbers = lines.get(i + 1).trim().split("\\s+");
      if (names.length != numbers.length || !names[0].equals(numbers[0])) {
        throw new IllegalArgumentException("not a counters pair: \"" + lines.get(i) + "\" / \"" + lines.get(i + 1) + "\"");
      }
      for (int k = 1; k < names.length; k++) {
        out.put(names[k], Long.parseLong(numbers[k]));
      }
    }
    return out;
  }

  static TcpCounters of(Map<String, Long> values) {
    return new TcpCounters(Map.copyOf(values));
  }

  /** How much {@code name} grew since {@code before}; NaN when either reading lacks it. */
  double since(TcpCounters before, String name) {
    Long now = values.get(name);
    Long then = before.values.get(name);
    return now == null || then == null ? Double.NaN : now - then;
  }
}
