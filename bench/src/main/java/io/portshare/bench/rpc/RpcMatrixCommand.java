package io.portshare.bench.rpc;

import io.portshare.bench.load.EngineOptions;
import io.portshare.bench.load.LoadEngine;
import io.portshare.bench.load.LoadOptions;
import io.portshare.bench.load.LoadSpec;
import io.portshare.bench.load.Progress;
import io.portshare.bench.results.Machine;
import io.portshare.bench.results.Results;
import io.portshare.bench.results.ResultsText;
import io.portshare.bench.results.ResultsWriter;
import io.portshare.bench.results.RunCommand;
import io.portshare.bench.results.Table;
import io.portshare.runtime.config.ExitCodes;
import io.portshare.runtime.config.ScalingMode;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The RPC table: rows of (mode, workers), columns of (size, transactions per connection). Starts
 * rpc-server for each row as a child process, or measures an existing {@code --target}.
 */
@Command(name = "rpc-matrix", mixinStandardHelpOptions = true,
    description = "The RPC table: starts rpc-server per mode and worker count (or uses --target) and writes "
        + "table, JSON, CSV, HTML and PNG under --out/<timestamp>/.")
public final class RpcMatrixCommand implements Callable<Integer> {

  @Spec
  CommandSpec spec;

  static final List<String> MODES = List.of(ScalingMode.SHARED.label(), ScalingMode.REUSEPORT.label(),
      ScalingMode.PINNED.label(), "processes", "c-epoll");

  @Option(names = "--target", description = "HOST:PORT of a running echo server (e.g. a Kubernetes Service): one row, no servers started")
  String target;

  @Option(names = "--workers", split = ",",
      description = "worker counts, rows per mode (default: 1..CPUs); with --target, the target's worker count, for the per-worker figures")
  List<Integer> workers;

  @Option(names = "--modes", split = ",",
      description = "shared, reuseport, pinned, processes, c-epoll (default: all; pinned and c-epoll when available)")
  List<String> modes;

  @Option(names = "--rounds", defaultValue = "1",
      description = "repeat the matrix, alternating the order, and report median and spread (default: ${DEFAULT-VALUE})")
  int rounds;

  @Option(names = "--port", defaultValue = "19090",
      description = "port of the started servers; their admin ports are PORT+1.. (default: ${DEFAULT-VALUE})")
  int port;

  @Option(names = "--server-warmup", defaultValue = "4s",
      description = "unmeasured load on each freshly started server, spread over the columns (default: ${DEFAULT-VALUE})")
  Duration serverWarmup;

  @Mixin
  RpcTableOptions common = new RpcTableOptions();

  @Mixin
  EngineOptions engine = new EngineOptions();

  @Override
  public Integer call() throws IOException {
    List<Column> cols = common.columns();
    if (rounds < 1) {
      throw new IllegalArgumentException("invalid value for --rounds: " + rounds + "; expected at least 1");
    }
    int cpus = Runtime.getRuntime().availableProcessors();
    List<Integer> counts = workers != null ? workers : range(cpus);
    for (int w : counts) {
      if (w < 1 || w > 1024) {
        throw new IllegalArgumentException("invalid value for --workers: " + w + "; expected 1..1024");
      }
    }
    if (target == null && engine.knowsServer()) {
      throw new IllegalArgumentException("--server-pid and --server-metrics go with --target; without it the "
          + "servers are started here and their CPU read from /proc");
    }
    LoadEngine load0 = engine.engine(common.load);
    String host = "127.0.0.1";
    int trafficPort = port;
    List<RpcMatrix.RowPlan> plans = new ArrayList<>();
    if (target != null) {
      String[] hp = LoadOptions.hostPort(target);
      host = hp[0];
      trafficPort = Integer.parseInt(hp[1]);
      int targetWorkers = workers != null && workers.size() == 1 ? workers.get(0) : 0;
      plans.add(new RpcMatrix.RowPlan("target", targetWorkers, List.of(), false, engine.serverCpu()));
    } else {
      if (port < 1 || port > 65535 - 1 - counts.stream().mapToInt(Integer::intValue).max().orElse(1)) {
        throw new IllegalArgumentException("invalid value for --port: " + port);
      }
      boolean explicit = modes != null;
      List<String> wanted = explicit ? modes : MODES;
      for (String m : wanted) {
        if (!MODES.contains(m)) {
          throw new IllegalArgumentException("invalid value for --modes: \"" + m + "\"; expected " + String.join("|", MODES));
        }
      }
      if (wanted.stream().anyMatch(m -> !m.equals("c-epoll"))) {
        common.servers.requireJar();
      }
      for (int w : counts) {
        for (String m : wanted) {
          if (m.equals("c-epoll")) {
            if (!explicit && !common.servers.hasCEcho()) {
              continue; // the C peer is optional
            }
            plans.add(new RpcMatrix.RowPlan(m, w, List.of(common.servers.cEcho(port, w)), true));
          } else {
            plans.add(new RpcMatrix.RowPlan(m, w, common.servers.rpcServer(m, w, host, port), false));
          }
        }
      }
    }
    Path dir = common.reports.thisRun("");
    LoadSpec base = common.load.spec(host, trafficPort, 64, 1);
    Map<String, String> meta = meta(base, rounds, load0);
    System.out.println("RPC matrix (" + load0.describe() + "): " + plans.size() + " rows x " + cols.size() + " columns x " + rounds
        + " round(s), about " + estimateSeconds(base, plans.size() * cols.size() * rounds, plans.size() * rounds)
        + " s; load average " + meta.get("load average at start") + "; reports in " + dir);
    Table table = new RpcMatrix(base, cols, rounds, dir.resolve("servers"), System.out, Progress.onTerminal(),
        target != null ? Duration.ZERO : serverWarmup, load0)
        .run(plans);
    meta.put("load average at end", Machine.loadAverage());
    Results result = new Results("portshare RPC benchmark", meta, List.of(table));
    // The table first: a report directory that cannot be written must not lose the measurement.
    System.out.println();
    System.out.print(ResultsText.table(table));
    System.out.println();
    System.out.println("load average: " + meta.get("load average at start") + " at start, "
        + meta.get("load average at end") + " at end (CPUs: " + cpus + ")");
    System.out.flush();
    ResultsWriter.writeAll(result, dir);
    System.out.println("written: " + dir.resolve("report.html") + " (and table.txt, results.json, results.csv; "
        + "chart: deploy/bench.sh charts " + dir + ")");
    return result.anyErrors() ? ExitCodes.SOFTWARE : ExitCodes.OK;
  }

  private static long estimateSeconds(LoadSpec s, int cells, int serverStarts) {
    return cells * (s.warmup().toSeconds() + s.duration().toSeconds() + 1) + serverStarts * 7L;
  }

  private static List<Integer> range(int n) {
    List<Integer> out = new ArrayList<>();
    for (int i = 1; i <= n; i++) {
      out.add(i);
    }
    return out;
  }

  private Map<String, String> meta(LoadSpec s, int rounds, LoadEngine load0) {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("command", RunCommand.of(spec));
    m.putAll(Machine.describe());
    m.put("target", target != null ? target + (engine.knowsServer() ? ""
        : " (server CPU not known: give --server-pid, or --server-metrics for servers elsewhere)")
        : "rpc-server started per row on " + s.host() + ":" + s.port()
        + " (" + common.servers.jar() + ", JVM " + String.join(" ", common.servers.jvmOptions()) + ")");
    m.put("load generator", load0.describe() + ", " + s.eventLoops() + " threads, " + s.connections()
        + " connections, " + (s.openLoop() ? "open loop at " + s.ratePerSecond() + " requests/s" : "closed loop"));
    m.put("CPU", target != null && engine.knowsServer()
        ? "client = the generator's process, user + system from /proc; server = " + engine.describeServer()
            + "; both over each measured window"
        : "client = the generator's process, server = the server processes, user + system from /proc over "
            + "each measured window; on loopback part of each side's kernel work is charged to the other");
    m.put("per cell", "warm-up " + s.warmup().toMillis() + " ms, measured " + s.duration().toMillis() + " ms");
    m.put("server warm-up", target != null ? "none (existing target)"
        : serverWarmup.toMillis() + " ms of unmeasured load after each server start");
    m.put("rounds", rounds + (rounds > 1 ? " (order of rows and columns reversed every other round)" : ""));
    m.put("load average at start", Machine.loadAverage());
    return m;
  }
}
