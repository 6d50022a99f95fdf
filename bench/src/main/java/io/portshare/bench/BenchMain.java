package io.portshare.bench;

import io.portshare.bench.latency.LatencyCommand;
import io.portshare.bench.ledger.LedgerCommand;
import io.portshare.bench.results.RunsCommand;
import io.portshare.bench.rpc.RpcCalibrateCommand;
import io.portshare.bench.rpc.RpcCommand;
import io.portshare.bench.rpc.RpcMatrixCommand;
import io.portshare.bench.seeds.SeedsCommand;
import io.portshare.bench.staticfiles.StaticCommand;
import io.portshare.runtime.Units;
import io.portshare.runtime.config.ExitCodes;
import java.io.PrintWriter;
import java.time.Duration;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code java -jar portshare-bench.jar SUBCOMMAND}: the RPC load generator ({@code rpc}), the RPC
 * matrix driver ({@code rpc-matrix}), the generator's calibration against the C reference client
 * ({@code rpc-calibrate}), the static-file table ({@code static}), the five source experiments
 * ({@code seeds}), a run's reports again from its results ({@code report}) and what one connection
 * costs each server at the floor ({@code ledger}), and open-loop latency from the due time
 * ({@code latency}). Exit codes ({@link ExitCodes}): 0 done, 2 bad usage,
 * 1 anything else (including a run that counted errors).
 */
@Command(name = "portshare-bench", mixinStandardHelpOptions = true, versionProvider = BenchMain.Version.class,
    description = "Benchmarks of portshare services: RPC transactions and static files.",
    subcommands = {RpcCommand.class, RpcMatrixCommand.class, RpcCalibrateCommand.class, StaticCommand.class,
        SeedsCommand.class, ReportCommand.class, LedgerCommand.class, RunsCommand.class, LatencyCommand.class})
public final class BenchMain implements Runnable {

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  public static void main(String[] args) {
    System.exit(execute(args));
  }

  /** Runs one command line as {@link #main} does, without exiting: its exit code. */
  public static int execute(String... args) {
    CommandLine cl = new CommandLine(new BenchMain());
    cl.registerConverter(Duration.class, Units::duration);
    cl.setParameterExceptionHandler((ex, a) -> {
      ex.getCommandLine().getErr().println("portshare-bench: " + ex.getMessage() + " (see --help)");
      return ExitCodes.USAGE;
    });
    cl.setExecutionExceptionHandler((ex, cmd, parsed) -> {
      if (ex instanceof IllegalArgumentException) {
        cmd.getErr().println("portshare-bench: " + ex.getMessage());
        return ExitCodes.USAGE;
      }
      cmd.getErr().println("portshare-bench: failed: " + ex);
      return ExitCodes.SOFTWARE;
    });
    cl.setErr(new PrintWriter(System.err, true));
    return cl.execute(args);
  }

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(),
        "which subcommand? one of " + String.join(", ", spec.subcommands().keySet()));
  }

  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String v = BenchMain.class.getPackage().getImplementationVersion();
      return new String[] {"portshare-bench " + (v == null ? "dev" : v)};
    }
  }
}
