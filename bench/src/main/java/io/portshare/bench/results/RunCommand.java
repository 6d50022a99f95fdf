package io.portshare.bench.results;

import java.util.List;
import picocli.CommandLine.Model.CommandSpec;

/** The command line of a run, as its reports quote it: how the jar was started and its arguments. */
public final class RunCommand {

  private RunCommand() {}

  /** The command line of the run that {@code spec}'s command is part of, from what picocli parsed. */
  public static String of(CommandSpec spec) {
    return of(spec.commandLine().getParseResult().originalArgs());
  }

  static String of(List<String> args) {
    String given = System.getenv("PORTSHARE_BENCH_COMMAND");
    String jar = "java -jar bench/target/portshare-bench.jar " + String.join(" ", quoted(args));
    return given == null || given.isBlank() ? jar : given + "  (runs: " + jar + ")";
  }

  private static List<String> quoted(List<String> args) {
    return args.stream().map(a -> a.matches("[A-Za-z0-9_./:=,@%+-]+") ? a : "'" + a + "'").toList();
  }
}
