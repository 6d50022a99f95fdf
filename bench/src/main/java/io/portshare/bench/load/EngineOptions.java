package io.portshare.bench.load;

import io.portshare.bench.cpu.CpuProbe;
import io.portshare.bench.cpu.MetricsCpu;
import java.util.List;
import picocli.CommandLine.Option;

/** Who makes the load of a run, and which server processes' CPU it is weighed against. */
public final class EngineOptions {

  @Option(names = "--engine", defaultValue = "auto",
      description = "who makes the load: auto (the C reference client for closed loops when built, else this "
          + "generator), java, or c (the C client, closed loop only; see rpc-calibrate) (default: ${DEFAULT-VALUE})")
  String engine;

  @Option(names = "--server-pid", split = ",",
      description = "the server's process id(s) when it runs on this machine (in rpc-matrix: with --target): its CPU "
          + "is recorded next to the generator's")
  List<Long> serverPids;

  @Option(names = "--server-metrics", paramLabel = "HOST:PORT",
      description = "the servers' admin port when they run elsewhere (e.g. pods behind a headless Service): their CPU "
          + "is read from /metrics (process_cpu_time_ns_total) at every address HOST resolves to, before and after "
          + "each measured window")
  String serverMetrics;

  private CpuProbe serverCpu;

  public LoadEngine engine(LoadOptions load) {
    return LoadEngine.named(engine, load.cLoad(), load.rate > 0);
  }

  public boolean knowsServer() {
    return serverPids != null || serverMetrics != null;
  }

  /** Where the server's CPU comes from, for the report; null when it is not known. */
  public String describeServer() {
    CpuProbe probe = serverCpu();
    return probe instanceof MetricsCpu m ? m.describe()
        : serverPids != null ? "user + system of processes " + serverPids + " from /proc" : null;
  }

  /**
   * The server's CPU: from /proc for {@code --server-pid}, from the servers' own metrics for
   * {@code --server-metrics} (resolved and read once, here, so a wrong address fails before any load).
   */
  public CpuProbe serverCpu() {
    if (serverCpu == null) {
      if (serverPids != null && serverMetrics != null) {
        throw new IllegalArgumentException("--server-pid and --server-metrics both say where the server is; give one");
      }
      if (serverMetrics != null) {
        String[] hp = LoadOptions.hostPort("--server-metrics", serverMetrics);
        serverCpu = MetricsCpu.of("--server-metrics", hp[0], Integer.parseInt(hp[1]));
      } else {
        serverCpu = serverPids == null ? CpuProbe.UNKNOWN : CpuProbe.processes(serverPids);
      }
    }
    return serverCpu;
  }
}
