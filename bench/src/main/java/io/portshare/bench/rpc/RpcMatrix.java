package io.portshare.bench.rpc;

import io.portshare.bench.cpu.CpuProbe;
import io.portshare.bench.load.LoadEngine;
import io.portshare.bench.load.LoadSpec;
import io.portshare.bench.load.Measurement;
import io.portshare.bench.load.Progress;
import io.portshare.bench.results.Table;
import io.portshare.bench.server.ServerProcesses;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs the RPC matrix: for each round, each row (a server layout, started fresh, or an existing
 * target), each column. Rounds alternate the order of rows and of columns so that a machine that
 * gets busier or quieter during the run does not favour whoever goes first. Every cell records
 * the CPU the generator and the server processes spent on it.
 */
public final class RpcMatrix {

  /**
   * A row to measure: a mode at a worker count, started with these commands (a C peer without
   * admin port when {@code plain}), or an existing target ({@code commands} empty) whose CPU
   * {@code targetCpu} reads (its processes here, its pods' metrics, or {@link CpuProbe#UNKNOWN}). A plain row with {@code children} above 0
   * is a supervisor started by socket activation: it starts on the first connection, and is ready
   * when its children's admin ports (PORT+1 ..) say so.
   */
  public record RowPlan(String mode, int workers, List<List<String>> commands, boolean plain, CpuProbe targetCpu,
      int children) {

    public RowPlan(String mode, int workers, List<List<String>> commands, boolean plain) {
      this(mode, workers, commands, plain, CpuProbe.UNKNOWN, 0);
    }

    public RowPlan(String mode, int workers, List<List<String>> commands, boolean plain, CpuProbe targetCpu) {
      this(mode, workers, commands, plain, targetCpu, 0);
    }

    String label() {
      return workers > 0 ? mode + " x" + workers : mode;
    }
  }

  private final LoadSpec base;
  private final List<Column> columns;
  private final int rounds;
  private final Path logDir;
  private final PrintStream log;
  private final Progress progress;
  private final Duration serverWarmup;
  private final LoadEngine engine;

  public RpcMatrix(LoadSpec base, List<Column> columns, int rounds, Path logDir, PrintStream log, Progress progress) {
    this(base, columns, rounds, logDir, log, progress, Duration.ZERO, LoadEngine.JAVA);
  }

  /**
   * {@code serverWarmup}: load run, not measured, on every freshly started server before its first
   * cell, so that the first column does not pay for the server's JIT and class loading alone.
   */
  public RpcMatrix(LoadSpec base, List<Column> columns, int rounds, Path logDir, PrintStream log, Progress progress,
      Duration serverWarmup, LoadEngine engine) {
    this.serverWarmup = serverWarmup;
    this.base = base;
    this.columns = List.copyOf(columns);
    this.rounds = rounds;
    this.logDir = logDir;
    this.log = log;
    this.progress = progress;
    this.engine = engine;
  }

  /** The table of the run, rows in the order of {@code plans}. */
  public Table run(List<RowPlan> plans) {
    Map<RowPlan, Map<Column, List<Measurement>>> results = new LinkedHashMap<>();
    Map<RowPlan, String> notes = new LinkedHashMap<>();
    for (RowPlan p : plans) {
      Map<Column, List<Measurement>> cells = new LinkedHashMap<>();
      columns.forEach(c -> cells.put(c, new ArrayList<>()));
      results.put(p, cells);
    }
    for (int round = 0; round < rounds; round++) {
      List<RowPlan> order = new ArrayList<>(plans);
      List<Column> colOrder = new ArrayList<>(columns);
      if (round % 2 == 1) {
        Collections.reverse(order);
        Collections.reverse(colOrder);
      }
      for (RowPlan plan : order) {
        if (notes.containsKey(plan)) {
          continue; // a row that could not run once will not run in the next round either
        }
        String note = runRow(plan, colOrder, results.get(plan), round);
        if (note != null) {
          notes.put(plan, note);
          log.println("  " + plan.label() + ": " + note);
        }
      }
    }
    List<RpcResults.RowRuns> rows = new ArrayList<>();
    for (RowPlan p : plans) {
      Map<String, List<Measurement>> cells = new LinkedHashMap<>();
      results.get(p).forEach((c, rs) -> cells.put(c.label(), rs));
      rows.add(new RpcResults.RowRuns(p.label(), p.workers(), cells, notes.get(p)));
    }
    return RpcResults.table("rpc", "RPC echo", columns.stream().map(Column::label).toList(), rows);
  }

  /** Measures one row once; returns why it could not run, or null. */
  private String runRow(RowPlan plan, List<Column> colOrder, Map<Column, List<Measurement>> into, int round) {
    String name = plan.mode() + "-x" + plan.workers() + "-r" + (round + 1);
    ServerProcesses servers = null;
    try {
      if (plan.plain()) {
        servers = ServerProcesses.startPlain(plan.commands().get(0), base.host(), base.port(), logDir, name);
        if (plan.children() > 0) {
          servers.awaitAdmin(base.port() + 1, plan.children());
        }
      } else if (!plan.commands().isEmpty()) {
        servers = ServerProcesses.start(plan.commands(), base.port() + 1, logDir, name);
        String actual = servers.reportedMode();
        String expected = "processes".equals(plan.mode()) ? "reuseport" : plan.mode();
        if (!actual.equals(expected)) {
          return "not available: the server ran it as " + actual;
        }
      }
      CpuProbe serverCpu = servers != null ? CpuProbe.processes(servers.pids()) : plan.targetCpu();
      if (servers != null && !serverWarmup.isZero()) {
        for (Column c : colOrder) {
          LoadSpec prime = base.withCell(c.payloadSize(), c.perConnection());
          engine.run(new LoadSpec(prime.host(), prime.port(), prime.connections(), prime.transactionsPerConnection(),
              prime.payloadSize(), Duration.ZERO, serverWarmup.dividedBy(colOrder.size()), 0,
              prime.eventLoops(), prime.timeout()), progress.label(String.format("%-10s x%-2d %-12s", plan.mode(),
              plan.workers(), "server warm-up")), CpuProbe.UNKNOWN);
        }
      }
      for (Column c : colOrder) {
        LoadSpec spec = base.withCell(c.payloadSize(), c.perConnection());
        Measurement r = engine.run(spec,
            progress.label(String.format("%-10s x%-2d %-12s", plan.mode(), plan.workers(), c.label())), serverCpu);
        into.get(c).add(r);
        log.printf("  round %d  %-10s x%-2d %-12s %10.0f trans/s  p99 %7s ms  CPU us/trans %s  errors: %s%n", round + 1,
            plan.mode(), plan.workers(), c.label(), r.perSecond(), Formats.millis(r.latency().p99()),
            Formats.cpuText(r), Formats.errorText(r.sortedErrors()));
      }
      return null;
    } catch (IOException e) {
      return "server did not start: " + e.getMessage();
    } finally {
      if (servers != null) {
        servers.close();
      }
    }
  }
}
