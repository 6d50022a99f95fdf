package io.portshare.bench.seeds;

import io.portshare.bench.cpu.CpuProbe;
import io.portshare.bench.load.LoadEngine;
import io.portshare.bench.load.LoadSpec;
import io.portshare.bench.load.Progress;
import io.portshare.bench.results.Row;
import io.portshare.bench.results.Table;
import io.portshare.bench.rpc.Column;
import io.portshare.bench.rpc.RpcMatrix;
import io.portshare.runtime.config.ScalingMode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Seed 003: the RPC table at 1, 2, 4, 8 and 16 workers (more workers than CPUs run, and say so), rows
 * as published plus ours: {@code one-socket} (N processes accepting on one socket, handed to each by
 * socket activation and the supervisor: the published {@code -s}), {@code shared} (one socket, Vert.x's
 * acceptor), {@code reuseport} ({@code -r}), {@code pinned} ({@code -R}), and the C epoll echo server.
 */
final class RpcWorkers {

  static final String ONE_SOCKET = "one-socket";
  static final List<String> MODES = List.of(ONE_SOCKET, ScalingMode.SHARED.label(), ScalingMode.REUSEPORT.label(),
      ScalingMode.PINNED.label(), "c-epoll");
  static final String OVERSUBSCRIBED = "oversubscribed";

  private final Lab lab;

  RpcWorkers(Lab lab) {
    this.lab = lab;
  }

  Table run(Map<String, String> meta) {
    SeedPlan plan = lab.plan;
    int port = lab.port(plan.rpcWorkers().stream().mapToInt(Integer::intValue).max().orElse(1));
    List<RpcMatrix.RowPlan> plans = new ArrayList<>();
    List<String> order = new ArrayList<>();
    Map<String, String> skipped = new LinkedHashMap<>();
    for (int w : plan.rpcWorkers()) {
      for (String mode : plan.rpcModes()) {
        String label = mode + " x" + w;
        order.add(label);
        if (mode.equals(ScalingMode.PINNED.label()) && w > lab.cpus) {
          skipped.put(label, "not run: pinned gives each event loop a CPU of its own, and there are " + lab.cpus);
        } else {
          plans.add(row(mode, w, port));
        }
      }
    }
    LoadEngine engine = LoadEngine.named("auto", plan.cLoad(), false);
    meta.put("seed 003 load", engine.describe() + ", " + plan.rpcConnections() + " connections, "
        + lab.cpus + " client threads, closed loop, " + plan.rpcWarmup().toMillis() + " ms warm-up and "
        + plan.rpcDuration().toMillis() + " ms measured per cell; " + serverWarmup().toMillis()
        + " ms of unmeasured load after each server start, each rpc-server warmed by its own warm-up before ready");
    LoadSpec base = new LoadSpec("127.0.0.1", port, plan.rpcConnections(), 1, 64, plan.rpcWarmup(), plan.rpcDuration(),
        0, lab.cpus, Duration.ofSeconds(5));
    Table t = new RpcMatrix(base, Column.SEED, plan.rpcRounds(), plan.logDir(), lab.log, Progress.none(),
        serverWarmup(), engine).run(plans);
    Map<String, Row> measured = new LinkedHashMap<>();
    t.rows().forEach(r -> measured.put(r.label(), r));
    List<Row> rows = new ArrayList<>();
    for (String label : order) {
      Row r = measured.get(label);
      rows.add(r != null ? new Row(label(label, lab.cpus), r.cells(), r.note())
          : new Row(label(label, lab.cpus), List.of(), skipped.get(label)));
    }
    return new Table("003", "Seed 003 on this machine: RPC echo, 10^4 transactions/s, workers "
        + plan.rpcWorkers() + " on " + lab.cpus + " CPUs", t.metrics(), t.columns(), rows, t.ratio());
  }

  /** Unmeasured load on each server the matrix starts: 2 s, or less when the plan's server warm-up is shorter. */
  private Duration serverWarmup() {
    Duration w = lab.plan.serverWarmup();
    return w.compareTo(Duration.ofSeconds(2)) < 0 ? w : Duration.ofSeconds(2);
  }

  /** A row's label, marked when the row has more workers than the machine has CPUs. */
  static String label(String row, int cpus) {
    return workers(row) > cpus ? row + " (" + OVERSUBSCRIBED + ")" : row;
  }

  /** The worker count in a row label such as {@code pinned x4}. */
  static int workers(String label) {
    int x = label.lastIndexOf(" x");
    if (x < 0) {
      return 0;
    }
    String n = label.substring(x + 2).split(" ")[0];
    return n.matches("\\d+") ? Integer.parseInt(n) : 0;
  }

  private RpcMatrix.RowPlan row(String mode, int w, int port) {
    SeedPlan plan = lab.plan;
    return switch (mode) {
      case "c-epoll" -> new RpcMatrix.RowPlan(mode, w, List.of(List.of(plan.cEcho().toString(), "-p",
          Integer.toString(port), "-t", Integer.toString(w))), true);
      case ONE_SOCKET -> {
        List<String> cmd = new ArrayList<>(List.of("systemd-socket-activate", "-l", "127.0.0.1:" + port));
        cmd.addAll(rpcServer(port, List.of("--supervise", Integer.toString(w))));
        yield new RpcMatrix.RowPlan(mode, w, List.of(cmd), true, CpuProbe.UNKNOWN, w);
      }
      default -> new RpcMatrix.RowPlan(mode, w, List.of(rpcServer(port, List.of("--instances", Integer.toString(w),
          "--mode", mode))), false);
    };
  }

  /**
   * rpc-server on loopback, admin on PORT+1, warmed by its own warm-up before ready (its default
   * {@code --warmup}: one-frame connections until the rate settles), as a user's server starts. Started
   * cold with only the matrix's 2 s of load, the one-worker rows of a run on 2 CPUs spent 187-232 µs of
   * server CPU per 64B|1x transaction, their first column, and 67-88 µs per 1024B|1x transaction after
   * it (the C server: 32 µs for either).
   */
  private List<String> rpcServer(int port, List<String> flags) {
    SeedPlan plan = lab.plan;
    List<String> cmd = new ArrayList<>();
    cmd.add(plan.java());
    cmd.addAll(plan.jvmOptions());
    cmd.addAll(List.of("-jar", plan.rpcJar().toString(), "--host", "127.0.0.1", "--port", Integer.toString(port),
        "--admin-port", Integer.toString(port + 1), "--drain-timeout", "2s"));
    cmd.addAll(flags);
    cmd.addAll(plan.serverArgs());
    return cmd;
  }
}
