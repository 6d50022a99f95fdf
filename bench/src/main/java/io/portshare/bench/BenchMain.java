package io.portshare.bench;

import java.io.PrintWriter;
import picocli.CommandLine;
import io.portshare.bench.results.ReportCommand;
import io.portshare.bench.statics.StaticCommand;
import picocli.CommandLine.Command;

/**
 * {@code java -jar portshare-bench.jar SUBCOMMAND}: the RPC load generator ({@code rpc}), the RPC
 * matrix driver ({@code rpc-matrix}), the static-file table ({@code static}) and a run's reports again from its
 * results ({@code report}). Exit codes: 0 done,
 * 2 bad usage, 1 anything else (including a run that counted errors).
 */
@Command(name = "portshare-bench", mixinStandardHelpOptions = true, versionProvider = BenchMain.Version.class,
    description = "Benchmarks of portshare services: RPC transactions and static files.",
    subcommands = {RpcCommand.class, RpcMatrixCommand.class, StaticCommand.class, ReportCommand.class})
public final class BenchMain implements Runnable {

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  public static void main(String[] args) {
    System.exit(execute(args));
  }

  static int execute(String... args) {
    CommandLine cl = new CommandLine(new BenchMain());
    cl.registerConverter(java.time.Duration.class, Durations::parse);
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
    throw new CommandLine.ParameterException(spec.commandLine(), "which subcommand? one of rpc, rpc-matrix, static, report");
  }

  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String v = BenchMain.class.getPackage().getImplementationVersion();
      return new String[] {"portshare-bench " + (v == null ? "dev" : v)};
    }
  }
}
