package io.portshare.bench.rpc;

import io.portshare.bench.cpu.CpuProbe;
import io.portshare.bench.load.CLoadTool;
import io.portshare.bench.load.LoadEngine;
import io.portshare.bench.load.LoadGenerator;
import io.portshare.bench.load.LoadSpec;
import io.portshare.bench.load.Measurement;
import io.portshare.bench.load.Progress;
import io.portshare.bench.results.Machine;
import io.portshare.bench.results.Results;
import io.portshare.bench.results.ResultsText;
import io.portshare.bench.results.ResultsWriter;
import io.portshare.bench.results.RunCommand;
import io.portshare.bench.results.Table;
import io.portshare.bench.server.ServerProcesses;
import io.portshare.runtime.config.ExitCodes;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * How far the generator can be trusted: against the same server in the same run, this JVM's
 * generator and the C reference client take turns on every cell (pairs, the order alternating), and
 * the fidelity of a cell is the median over the pairs of generator trans/s / C trans/s, printed
 * with both clients' CPU per transaction. Servers: the C echo peer and rpc-server, started here.
 */
@Command(name = "rpc-calibrate", mixinStandardHelpOptions = true,
    description = "The generator's fidelity: it and the C reference client (bench/peers/c-echo/rpcload) alternate on "
        + "each cell against the C echo peer and rpc-server; prints generator/C per cell (median of the pairs) and "
        + "writes the reports under --out/<timestamp>-calibrate/.")
public final class RpcCalibrateCommand implements Callable<Integer> {

  @Spec
  CommandSpec spec;

  static final List<String> TARGETS = List.of("c-echo", "rpc-server");

  @Option(names = "--targets", split = ",", defaultValue = "c-echo,rpc-server",
      description = "servers to calibrate against: c-echo, rpc-server (default: ${DEFAULT-VALUE})")
  List<String> targets;

  @Option(names = "--pairs", defaultValue = "3", description = "alternated generator/C pairs per cell (default: ${DEFAULT-VALUE})")
  int pairs;

  @Option(names = "--min-ratio", defaultValue = "0.9",
      description = "fidelity a cell must reach: generator trans/s / C trans/s (default: ${DEFAULT-VALUE})")
  double minRatio;

  @Option(names = "--port", defaultValue = "19290",
      description = "port of the C echo peer; rpc-server gets PORT+10, its admin port PORT+11 (default: ${DEFAULT-VALUE})")
  int port;

  @Option(names = "--generator-warmup", defaultValue = "6s",
      description = "unmeasured load per server before the pairs, spread over the columns: warms this JVM's JIT "
          + "and the server (default: ${DEFAULT-VALUE})")
  Duration generatorWarmup;

  @Mixin
  RpcTableOptions common = new RpcTableOptions();

  @Override
  public Integer call() throws IOException {
    List<Column> cols = common.columns();
    if (pairs < 1) {
      throw new IllegalArgumentException("invalid value for --pairs: " + pairs + "; expected at least 1");
    }
    for (String t : targets) {
      if (!TARGETS.contains(t)) {
        throw new IllegalArgumentException("invalid value for --targets: \"" + t + "\"; expected " + String.join("|", TARGETS));
      }
    }
    CLoadTool c = CLoadTool.at(common.load.cLoad());
    int cpus = Runtime.getRuntime().availableProcessors();
    List<String> cEcho = targets.contains("c-echo") ? common.servers.cEcho(port, cpus) : List.of();
    if (targets.contains("rpc-server")) {
      common.servers.requireJar();
    }
    Path dir = common.reports.thisRun("-calibrate");
    Map<String, String> meta = new LinkedHashMap<>();
    LoadSpec base = common.load.spec("127.0.0.1", port, 64, 1);
    String command = RunCommand.of(spec);
    meta.put("command", command);
    meta.putAll(Machine.describe());
    meta.put("clients", LoadEngine.JAVA.describe() + " against " + c.describe() + "; " + base.eventLoops()
        + " threads and " + base.connections() + " connections each; warm-up " + base.warmup().toMillis()
        + " ms, measured " + base.duration().toMillis() + " ms per run");
    meta.put("pairs", pairs + " per cell, the order alternating (generator first in odd pairs)");
    meta.put("servers", "c-echo: " + common.servers.cEcho.path() + " -t " + cpus + "; rpc-server: " + common.servers.jar()
        + " --instances " + cpus + " --mode reuseport");
    meta.put("load average at start", Machine.loadAverage());
    System.out.println("RPC calibration: " + targets.size() + " server(s) x " + cols.size() + " cells x " + pairs
        + " pairs; load average " + meta.get("load average at start") + "; reports in " + dir);

    List<RpcResults.RowRuns> rows = new ArrayList<>();
    List<String> verdicts = new ArrayList<>();
    boolean pass = true;
    int below = 0;
    int errors = 0;
    for (String target : targets) {
      Map<Column, List<Measurement>> java = new LinkedHashMap<>();
      Map<Column, List<Measurement>> cTool = new LinkedHashMap<>();
      int targetPort = target.equals("c-echo") ? port : port + 10;
      LoadSpec spec0 = base.withTarget("127.0.0.1", targetPort);
      try (ServerProcesses server = start(target, cEcho, targetPort, cpus, dir.resolve("servers"))) {
        CpuProbe serverCpu = CpuProbe.processes(server.pids());
        for (Column col : cols) {
          LoadSpec cell = spec0.withCell(col.payloadSize(), col.perConnection());
          LoadGenerator.run(new LoadSpec(cell.host(), cell.port(), cell.connections(), cell.transactionsPerConnection(),
              cell.payloadSize(), Duration.ZERO, generatorWarmup.dividedBy(cols.size()), 0, cell.eventLoops(),
              cell.timeout()), Progress.onTerminal().label(target + " " + col.label() + " warm-up"));
        }
        for (int pair = 0; pair < pairs; pair++) {
          List<Column> order = new ArrayList<>(cols);
          if (pair % 2 == 1) {
            Collections.reverse(order);
          }
          for (Column col : order) {
            LoadSpec cell = spec0.withCell(col.payloadSize(), col.perConnection());
            Progress p = Progress.onTerminal().label(target + " " + col.label() + " pair " + (pair + 1));
            Measurement j;
            Measurement k;
            if (pair % 2 == 0) {
              j = LoadEngine.JAVA.run(cell, p, serverCpu);
              k = c.run(cell, p, serverCpu);
            } else {
              k = c.run(cell, p, serverCpu);
              j = LoadEngine.JAVA.run(cell, p, serverCpu);
            }
            java.computeIfAbsent(col, x -> new ArrayList<>()).add(j);
            cTool.computeIfAbsent(col, x -> new ArrayList<>()).add(k);
            System.out.printf("  %-10s %-12s pair %d  generator %8.0f trans/s (CPU %s)  C %8.0f trans/s (CPU %s)  ratio %.2f%n",
                target, col.label(), pair + 1, j.perSecond(), Formats.cpuText(j), k.perSecond(),
                Formats.cpuText(k), ratio(j, k));
          }
        }
      }
      rows.add(row(target, "generator", java));
      rows.add(row(target, "C rpcload", cTool));
      for (Column col : cols) {
        Fidelity f = Fidelity.of(java.get(col), cTool.get(col));
        boolean ok = f.ratio() >= minRatio && f.errors() == 0;
        pass &= ok;
        below += f.ratio() < minRatio ? 1 : 0;
        errors += f.errors() > 0 ? 1 : 0;
        String v = String.format(Locale.ROOT,
            "%-10s %-12s generator %8.0f  C %8.0f trans/s  ratio %.2f (pairs %s)  client CPU us/trans: generator %s, C %s  %s",
            target, col.label(), f.generator(), f.c(), f.ratio(), f.pairRatios(), Formats.micros(f.generatorCpu()),
            Formats.micros(f.cCpu()), ok ? "ok" : f.errors() > 0 ? "ERRORS" : "BELOW " + minRatio);
        verdicts.add(v);
        meta.put("fidelity " + target + " " + col.label(), String.format(Locale.ROOT, "%.2f%s", f.ratio(),
            ok ? "" : " (below " + minRatio + ")"));
      }
    }
    meta.put("load average at end", Machine.loadAverage());
    Table table = RpcResults.table("rpc-calibration", "RPC calibration", cols.stream().map(Column::label).toList(), rows);
    ResultsWriter.writeAll(new Results("portshare RPC generator calibration", meta, List.of(table)), dir);
    String summary = "fidelity: generator trans/s / C rpcload trans/s, median of " + pairs
        + " alternated pairs per cell (target " + minRatio + ")\n" + String.join("\n", verdicts) + "\n"
        + verdict(pass, errors, below, cols.size() * targets.size()) + "\n";
    Files.writeString(dir.resolve("fidelity.txt"), "# " + command + "\n" + summary, StandardCharsets.UTF_8);
    System.out.println();
    System.out.print(ResultsText.table(table));
    System.out.println();
    System.out.print(summary);
    System.out.println("written: " + dir.resolve("fidelity.txt") + " (and report.html, table.txt, results.json, results.csv)");
    return errors == 0 ? ExitCodes.OK : ExitCodes.SOFTWARE;
  }

  /**
   * What the run decides. Below the ratio, the C client stays the closed-loop engine ({@code --engine
   * auto}), so the table is still measured by a client as light as C; only counted errors fail the run.
   */
  static String verdict(boolean pass, int errors, int below, int cells) {
    if (errors > 0) {
      return "FAIL: counted errors in " + errors + " of " + cells + " cells (see the table's errors)";
    }
    if (pass) {
      return "PASS: the Java generator reaches the C client's trans/s in every cell: either engine can make the load";
    }
    return "the Java generator is below the target in " + below + " of " + cells + " cells: closed-loop cells run on "
        + "the C client (--engine auto, whenever bench/peers/c-echo/rpcload is built); the Java generator makes the "
        + "open-loop (--rate) runs";
  }

  private ServerProcesses start(String target, List<String> cEcho, int targetPort, int cpus, Path logDir)
      throws IOException {
    if (target.equals("c-echo")) {
      return ServerProcesses.startPlain(cEcho, "127.0.0.1", targetPort, logDir, "calibrate-c-echo");
    }
    return ServerProcesses.start(common.servers.rpcServer("reuseport", cpus, "127.0.0.1", targetPort), targetPort + 1, logDir,
        "calibrate-rpc-server");
  }

  private static RpcResults.RowRuns row(String target, String client, Map<Column, List<Measurement>> cells) {
    Map<String, List<Measurement>> byLabel = new LinkedHashMap<>();
    cells.forEach((col, ms) -> byLabel.put(col.label(), ms));
    return new RpcResults.RowRuns(target + " / " + client, 0, byLabel, null);
  }

  static double ratio(Measurement generator, Measurement c) {
    return c.perSecond() <= 0 ? 0 : generator.perSecond() / c.perSecond();
  }
}
