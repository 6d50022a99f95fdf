package io.portshare.bench.load;

import io.portshare.bench.cpu.CpuProbe;
import io.portshare.bench.cpu.CpuSpent;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The C reference client ({@code bench/peers/c-echo/rpcload}) as a load engine: runs it for one
 * closed-loop cell, reads the server's CPU when it says the window opens ("measuring") and closes
 * ("done"), and takes its own CPU, counts and latency percentiles from its "result" line.
 */
public final class CLoadTool implements LoadEngine {

  private final Path binary;

  public CLoadTool(Path binary) {
    this.binary = binary;
  }

  public static CLoadTool at(Path binary) {
    if (!Files.isExecutable(binary)) {
      throw new IllegalArgumentException("no C load tool at " + binary
          + "; build it with bench/peers/c-echo/build.sh (needs gcc), or give --c-load");
    }
    return new CLoadTool(binary);
  }

  @Override
  public String describe() {
    return "C reference client (" + binary.getFileName() + ", epoll)";
  }

  List<String> command(LoadSpec spec) throws IOException {
    return List.of(binary.toString(), "-h", InetAddress.getByName(spec.host()).getHostAddress(),
        "-p", Integer.toString(spec.port()), "-c", Integer.toString(spec.connections()),
        "-s", Integer.toString(spec.payloadSize()), "-n", Integer.toString(spec.transactionsPerConnection()),
        "-d", seconds(spec.duration().toNanos()), "-w", seconds(spec.warmup().toNanos()),
        "-t", Integer.toString(spec.eventLoops()));
  }

  private static String seconds(long nanos) {
    return String.format(Locale.ROOT, "%.3f", nanos / 1e9);
  }

  @Override
  public Measurement run(LoadSpec spec, Progress progress, CpuProbe server) {
    if (spec.openLoop()) {
      throw new IllegalArgumentException("the C load tool runs closed loops only; an open loop (--rate) needs --engine java");
    }
    double[] window = {Double.NaN, Double.NaN};
    try {
      Output out = run(command(spec), () -> window[0] = server.seconds(), () -> window[1] = server.seconds());
      if (out.result() == null) {
        throw new IllegalStateException("the C load tool printed no result (exit " + out.exit() + "): " + out.other());
      }
      return measurement(out.result(), window[1] - window[0], spec.eventLoops());
    } catch (IOException e) {
      throw new IllegalStateException("cannot run the C load tool " + binary + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  /** What rpcload printed: its result line's keys and values (null without one), its other lines, its exit. */
  public record Output(Map<String, String> result, List<String> other, int exit) {}

  /**
   * Runs rpcload's {@code command} to its end, calling {@code measuring} and {@code done} as it
   * prints those marks: the measured window's edges, where the caller reads the server's CPU.
   */
  public static Output run(List<String> command, Runnable measuring, Runnable done)
      throws IOException, InterruptedException {
    Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    try {
      Map<String, String> result = null;
      List<String> other = new ArrayList<>();
      try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
        String line;
        while ((line = r.readLine()) != null) {
          if (line.equals("measuring")) {
            measuring.run();
          } else if (line.equals("done")) {
            done.run();
          } else if (line.startsWith("result ")) {
            result = parse(line);
          } else {
            other.add(line);
          }
        }
      }
      if (!p.waitFor(30, TimeUnit.SECONDS)) {
        throw new IOException("it did not exit 30 s after its output ended");
      }
      return new Output(result, other, p.exitValue());
    } finally {
      if (p.isAlive()) {
        p.destroyForcibly();
      }
    }
  }

  /** {@code result key=value ...} as a map. */
  static Map<String, String> parse(String line) {
    Map<String, String> m = new HashMap<>();
    for (String kv : line.substring("result ".length()).trim().split("\\s+")) {
      int eq = kv.indexOf('=');
      if (eq > 0) {
        m.put(kv.substring(0, eq), kv.substring(eq + 1));
      }
    }
    return m;
  }

  static Measurement measurement(Map<String, String> r, double serverSeconds, int threads) {
    double seconds = Double.parseDouble(r.get("seconds"));
    double client = Double.parseDouble(r.get("cpu_user_seconds")) + Double.parseDouble(r.get("cpu_system_seconds"));
    Map<String, Long> errors = new LinkedHashMap<>();
    r.forEach((k, v) -> {
      if (k.startsWith("errors_") && Long.parseLong(v) > 0) {
        errors.put(k.substring("errors_".length()).replace('_', '-'), Long.parseLong(v));
      }
    });
    int cores = Math.min(threads, Runtime.getRuntime().availableProcessors());
    long tx = Long.parseLong(r.get("transactions"));
    LatencySummary latency = tx == 0 || !r.containsKey("latency_us_p50") ? LatencySummary.EMPTY
        : new LatencySummary(tx, Double.parseDouble(r.get("latency_us_mean")), Long.parseLong(r.get("latency_us_p50")),
            Long.parseLong(r.get("latency_us_p90")), Long.parseLong(r.get("latency_us_p99")),
            Long.parseLong(r.get("latency_us_p999")), Math.round(Double.parseDouble(r.get("latency_us_max"))));
    return new Measurement(tx, seconds, latency, errors, new CpuSpent(client, serverSeconds, seconds, cores));
  }
}
