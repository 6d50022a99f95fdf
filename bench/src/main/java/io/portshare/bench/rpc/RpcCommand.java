package io.portshare.bench.rpc;

import io.portshare.bench.cpu.CpuProbe;
import io.portshare.bench.load.EchoCheck;
import io.portshare.bench.load.EngineOptions;
import io.portshare.bench.load.LatencySummary;
import io.portshare.bench.load.LoadEngine;
import io.portshare.bench.load.LoadOptions;
import io.portshare.bench.load.LoadSpec;
import io.portshare.bench.load.Measurement;
import io.portshare.bench.load.Progress;
import io.portshare.runtime.config.ExitCodes;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** One load run against a running server, printed as one block. */
@Command(name = "rpc", mixinStandardHelpOptions = true,
    description = "One RPC load run (closed loop, or open loop with --rate) against HOST:PORT.")
public final class RpcCommand implements Callable<Integer> {

  @Option(names = "--target", required = true, description = "HOST:PORT of the echo server")
  String target;

  @Option(names = "--size", defaultValue = "64", description = "payload bytes per request (default: ${DEFAULT-VALUE})")
  int size;

  @Option(names = "--per-connection", defaultValue = "1024",
      description = "transactions per connection before reconnecting; 1 = a new connection each (default: ${DEFAULT-VALUE})")
  int perConnection;

  @Mixin
  EngineOptions engine = new EngineOptions();

  @Mixin
  LoadOptions load = new LoadOptions();

  @Override
  public Integer call() {
    String[] hp = LoadOptions.hostPort(target);
    LoadSpec spec = load.spec(hp[0], Integer.parseInt(hp[1]), size, perConnection);
    LoadEngine e = engine.engine(load);
    // Flags first (a bad --server-metrics exits 2), then the target's echo.
    CpuProbe serverCpu = engine.serverCpu();
    String problem = EchoCheck.problem(spec.host(), spec.port(), size);
    if (problem != null) {
      System.err.println("portshare-bench: " + target + " does not echo a " + size + "-byte frame: " + problem);
      return ExitCodes.SOFTWARE;
    }
    Measurement r = e.run(spec, Progress.onTerminal().label(size + "B|" + perConnection + "x"), serverCpu);
    LatencySummary l = r.latency();
    System.out.printf("%s %dB|%dx %s, %d connections, %d threads, %s: %.0f trans/s (%s x10^4)%n",
        target, size, perConnection, spec.openLoop() ? "open loop at " + spec.ratePerSecond() + "/s" : "closed loop",
        spec.connections(), spec.eventLoops(), e.describe(), r.perSecond(), Formats.rate(r.perSecond()));
    if (l.count() > 0) {
      System.out.printf("latency ms: p50 %s  p90 %s  p99 %s  p99.9 %s  max %s  (%d transactions in %.1f s)%n",
          Formats.millis(l.p50()), Formats.millis(l.p90()), Formats.millis(l.p99()),
          Formats.millis(l.p999()), Formats.millis(l.max()), r.operations(), r.seconds());
    }
    System.out.println("CPU us/transaction: " + Formats.cpuText(r));
    System.out.println("errors: " + Formats.errorText(r.sortedErrors()));
    return r.errorCount() == 0 ? ExitCodes.OK : ExitCodes.SOFTWARE;
  }
}
