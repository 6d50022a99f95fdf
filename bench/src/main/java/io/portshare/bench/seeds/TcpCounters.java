package io.portshare.bench.seeds;

import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The kernel's TCP counters of this network namespace, as {@code nstat -asz --json} prints them,
 * so that a storm's lost connections can be told apart by where the kernel dropped them: a full
 * accept queue ({@code ListenOverflows}), a SYN dropped before it ({@code ListenDrops} counts both),
 * a client that had to send its SYN again ({@code TCPSynRetrans}), a reset for data that arrived
 * after close ({@code TCPAbortOnData}). The bench runs in a namespace of its own, so between two
 * readings the one server under load is the only listener these counters see.
 */
final class TcpCounters {

  static final List<String> NAMES = List.of("ListenOverflows", "ListenDrops", "TCPSynRetrans", "TCPAbortOnData");
  private static final String PREFIX = "TcpExt";

  private final Map<String, Long> values;

  private TcpCounters(Map<String, Long> values) {
    this.values = values;
  }

  /** This namespace's counters now; a counter nstat did not print is missing (NaN), never zero. */
  static TcpCounters read() throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of("nstat", "-asz", "--json"));
    NAMES.forEach(n -> cmd.add(PREFIX + n));
    Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (p.waitFor() != 0) {
      throw new IOException("nstat exited with " + p.exitValue() + " (Debian: apt-get install iproute2)");
    }
    return new TcpCounters(parse(out));
  }

  /** nstat's JSON: {@code {"kernel":{"TcpExtListenOverflows":17,...}}}, by name without the prefix. */
  static Map<String, Long> parse(String json) {
    Map<String, Long> out = new HashMap<>();
    new JsonObject(json).getJsonObject("kernel").forEach(e ->
        out.put(e.getKey().startsWith(PREFIX) ? e.getKey().substring(PREFIX.length()) : e.getKey(),
            ((Number) e.getValue()).longValue()));
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
