package io.portshare.bench;

import io.portshare.bench.ledger.LedgerCommand;
import io.portshare.bench.results.ReportCommand;
import io.portshare.bench.rpc.RpcCalibrateCommand;
import io.portshare.bench.rpc.RpcCommand;
import io.portshare.bench.rpc.RpcMatrixCommand;
import io.portshare.bench.seeds.SeedsCommand;
import io.portshare.bench.staticfiles.StaticCommand;
import io.portshare.runtime.config.Units;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine;

/**
 * {@code java -jar portshare-bench.jar SUBCOMMAND}: the RPC load generator ({@code rpc}), the RPC
 * matrix driver ({@code rpc-matrix}), the generator's calibration against the C reference client
 * ({@code rpc-calibrate}), the static-file table ({@code static}), the five source experiments
 * ({@code seeds}), a run's reports again from its results ({@code report}) and what one connection
 * costs each server at the floor ({@code ledger}). Exit codes: 0 done,
 * 2 bad usage, 1 anything else (including a run that counted errors).
 */
@Command(name = "portshare-bench", mixinStandardHelpOptions = true, versionProvider = BenchMain.Version.class,
    description = "Benchmarks of portshare services: RPC transactions and static files.",
    subcommands = {RpcCommand.class, RpcMatrixCommand.class, RpcCalibrateCommand.class, StaticCommand.class,
        SeedsCommand.class, ReportCommand.class, LedgerCommand.class})
public final class BenchMain implements Runnable {

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  public static void main(String[] args) {
    System.exit(execute(args));
  }

  /** The command line of this run, as reports quote it: how the jar was started and its arguments. */
  static String commandLine(String... args) {
    String given = System.getenv("PORTSHARE_BENCH_COMMAND");
    String jar = "java -jar bench/target/portshare-bench.jar " + String.join(" ", quoted(args));
    return given == null || given.isBlank() ? jar : given + "  (runs: " + jar + ")";
  }

  private static List<String> quoted(String[] args) {
    return Arrays.stream(args).map(a -> a.matches("[A-Za-z0-9_./:=,@%+-]+") ? a : "'" + a + "'").toList();
  }

  static String[] lastArgs = new String[0];

  /** This run's command line ({@link #commandLine}), for a subcommand outside this package. */
  public static String command() {
    return commandLine(lastArgs);
  }

  public static int execute(String... args) {
    lastArgs = args.clone();
    CommandLine cl = new CommandLine(new BenchMain());
    cl.registerConverter(Duration.class, Units::duration);
    cl.setParameterExceptionHandler((ex, a) -> {
      ex.getCommandLine().getErr().println("portshare-bench: " + ex.getMessage() + " (see --help)");
      return 2;
    });
    cl.setExecutionExceptionHandler((ex, cmd, parsed) -> {
      if (ex instanceof IllegalArgumentException) {
        cmd.getErr().println("portshare-bench: " + ex.getMessage());
        return 2;
      }
      cmd.getErr().println("portshare-bench: failed: " + ex);
      return 1;
    });
    cl.setErr(new PrintWriter(System.err, true));
    return cl.execute(args);
  }

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(),
        "which subcommand? one of rpc, rpc-matrix, rpc-calibrate, static, seeds, report, ledger");
  }

  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String v = BenchMain.class.getPackage().getImplementationVersion();
      return new String[] {"portshare-bench " + (v == null ? "dev" : v)};
    }
  }
}
