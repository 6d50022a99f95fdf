package io.portshare.bench.ledger;

import io.portshare.bench.cpu.CpuTime;
import io.portshare.bench.staticfiles.Wrk;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The ledger's load: the C reference client ({@code rpcload}, one thread) for RPC and wrk (one
 * thread) for HTTP, each a closed loop of {@code connections} against one server on the other core.
 */
final class Load {

  private final Path rpcload;
  private final String wrk;
  private final int connections;

  Load(Path rpcload, String wrk, int connections) {
    this.rpcload = rpcload;
    this.wrk = wrk;
    this.connections = connections;
  }

  /**
   * One pass of {@code duration} against {@code host}; with {@code warmup} the client first loads
   * the server unmeasured for that long (the C client in the same connection loop, wrk in a run of its own).
   */
  Pass run(Contender c, Workload w, String host, Duration duration, Duration warmup)
      throws IOException, InterruptedException {
    return w.kind() == Contender.Kind.RPC ? rpc(c, w, host, duration, warmup) : http(c, w, host, duration, warmup);
  }

  List<String> rpcCommand(Workload w, String host, int port, Duration duration, Duration warmup) {
    return List.of(rpcload.toString(), "-h", host, "-p", Integer.toString(port), "-c", Integer.toString(connections),
        "-s", Integer.toString(w.size()), "-n", Integer.toString(w.perConnection()),
        "-d", seconds(duration), "-w", seconds(warmup), "-t", "1");
  }

  private Pass rpc(Contender c, Workload w, String host, Duration duration, Duration warmup)
      throws IOException, InterruptedException {
    Process p = new ProcessBuilder(rpcCommand(w, host, c.port(), duration, warmup))
        .redirectError(ProcessBuilder.Redirect.INHERIT).start();
    CpuTime before = null;
    CpuTime after = null;
    Map<String, String> result = null;
    List<String> other = new ArrayList<>();
    try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = r.readLine()) != null) {
        if (line.equals("measuring")) {
          before = c.cpu();
        } else if (line.equals("done")) {
          after = c.cpu();
        } else if (line.startsWith("result ")) {
          result = parse(line);
        } else {
          other.add(line);
        }
      }
    } finally {
      if (!p.waitFor(30, TimeUnit.SECONDS)) {
        p.destroyForcibly();
      }
    }
    if (result == null || before == null || after == null) {
      throw new IOException("rpcload printed no result (exit " + p.exitValue() + "): " + other);
    }
    long tx = Long.parseLong(result.get("transactions"));
    long errors = result.entrySet().stream().filter(e -> e.getKey().startsWith("errors_"))
        .mapToLong(e -> Long.parseLong(e.getValue())).sum();
    double client = Double.parseDouble(result.get("cpu_user_seconds")) + Double.parseDouble(result.get("cpu_system_seconds"));
    return new Pass(tx, tx / w.perConnection(), Double.parseDouble(result.get("seconds")), after.minus(before), client,
        errors);
  }

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

  private Pass http(Contender c, Workload w, String host, Duration duration, Duration warmup)
      throws IOException, InterruptedException {
    Wrk tool = new Wrk(wrk, 1, connections);
    String url = "http://" + host + ":" + c.port() + "/" + w.path();
    if (!warmup.isZero()) {
      tool.run(url, w.close(), warmup);
    }
    CpuTime before = c.cpu();
    Wrk.Run run = tool.run(url, w.close(), duration);
    CpuTime after = c.cpu();
    long requests = run.result().requests();
    return new Pass(requests, w.close() ? requests : connections, run.result().seconds(), after.minus(before),
        run.clientCpu().seconds(), run.result().errors());
  }

  private static String seconds(Duration d) {
    return String.format(Locale.ROOT, "%.3f", d.toNanos() / 1e9);
  }
}
