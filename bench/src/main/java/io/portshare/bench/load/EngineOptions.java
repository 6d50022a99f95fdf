package io.portshare.bench.load;

import io.portshare.bench.cpu.CpuProbe;
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

  public LoadEngine engine(LoadOptions load) {
    return LoadEngine.named(engine, load.cLoad, load.rate > 0);
  }

  public boolean knowsServer() {
    return serverPids != null;
  }

  public List<Long> serverPids() {
    return serverPids == null ? List.of() : serverPids;
  }

  public CpuProbe serverCpu() {
    return serverPids == null ? CpuProbe.UNKNOWN : CpuProbe.processes(serverPids);
  }
}
