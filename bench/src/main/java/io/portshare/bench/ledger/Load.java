package io.portshare.bench.ledger;

import io.portshare.bench.cpu.CpuTime;
import io.portshare.bench.load.CLoadTool;
import io.portshare.bench.staticfiles.Wrk;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;

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
    CpuTime[] window = new CpuTime[2];
    CLoadTool.Output out = CLoadTool.run(rpcCommand(w, host, c.port(), duration, warmup),
        () -> window[0] = c.cpu(), () -> window[1] = c.cpu());
    Map<String, String> result = out.result();
    if (result == null || window[0] == null || window[1] == null) {
      throw new IOException("rpcload printed no result (exit " + out.exit() + "): " + out.other());
    }
    long tx = Long.parseLong(result.get("transactions"));
    long errors = result.entrySet().stream().filter(e -> e.getKey().startsWith("errors_"))
        .mapToLong(e -> Long.parseLong(e.getValue())).sum();
    double client = Double.parseDouble(result.get("cpu_user_seconds")) + Double.parseDouble(result.get("cpu_system_seconds"));
    return new Pass(tx, tx / w.perConnection(), Double.parseDouble(result.get("seconds")), window[1].minus(window[0]), client,
        errors, 0);
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
        run.clientCpu().seconds(), run.result().errors(), run.result().badStatus());
  }

  private static String seconds(Duration d) {
    return String.format(Locale.ROOT, "%.3f", d.toNanos() / 1e9);
  }
}
