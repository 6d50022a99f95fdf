package io.portshare.soak;

import io.portshare.kit.ServiceProcess;
import io.portshare.runtime.Units;
import io.portshare.runtime.config.ExitCodes;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * Runs the load and fault scenarios against the real service jars (rpc-server's and static-server's,
 * or any jars given by path or module name with {@code --rpc-jar} and {@code --static-jar}) and prints
 * one line each: what it did, connections, failures, server RSS. Exit 0 when every scenario held, 1 when one did not,
 * 2 on bad usage (one line naming the option and the value).
 */
@Command(name = "portshare-soak", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Load and fault scenarios against the real service jars, one line each.")
public final class SoakMain implements Callable<Integer> {

  static final List<String> SCENARIOS = List.of("short-connections", "concurrent", "concurrent-static", "sigkill", "rolling",
      "sigterm-rpc", "sigterm-static", "slowloris", "rpc-stalls", "handover", "handover-activate");
  private static final String RESULT = "RESULT\t";

  @Option(names = "--long", description = "the long run: 1,000,000 short connections, 30,000 concurrent, "
      + "4 processes, 5 rounds (each unless given)")
  boolean longRun;

  @Option(names = "--scenarios", split = ",", paramLabel = "NAME",
      description = "scenarios to run, comma-separated (default: all): ${COMPLETION-CANDIDATES}",
      completionCandidates = Scenarios.class)
  List<String> scenarios = SCENARIOS;

  @Option(names = "--root", paramLabel = "DIR", description = "the repository whose jars and scripts run (default: .)")
  Path root = Path.of(".");

  @Option(names = "--rpc-jar", paramLabel = "SERVICE",
      description = "the jar the RPC scenarios start: a path, or a module name of the repository (default: rpc-server)")
  String rpcJar;

  @Option(names = "--static-jar", paramLabel = "SERVICE",
      description = "the jar the HTTP scenarios start: a path, or a module name of the repository (default: static-server)")
  String staticJar;

  @Option(names = "--port-base", paramLabel = "N",
      description = "scenario k uses ports N+20k..N+20k+19; 0 picks free blocks (default: ${DEFAULT-VALUE})")
  int portBase = 59000;

  @Option(names = "--short-connections", paramLabel = "N", description = "connections of the short-connections scenario")
  Long shortConnections;

  @Option(names = "--concurrent", paramLabel = "N", description = "connections held open at once")
  Integer concurrent;

  @Option(names = "--processes", paramLabel = "N", description = "server processes sharing the port")
  Integer processes;

  @Option(names = "--rounds", paramLabel = "N", description = "rounds of the rolling restart")
  Integer rounds;

  @Option(names = "--load-time", paramLabel = "DURATION", defaultValue = "3s",
      description = "how long the sigkill scenario loads the servers (default: ${DEFAULT-VALUE})")
  Duration loadTime;

  @Option(names = "--netns", paramLabel = "auto|off",
      description = "run the rolling scenario in fresh network namespaces when possible (default: ${DEFAULT-VALUE})")
  Netns netns = Netns.auto;

  /** Set by the parent run of a scenario in a namespace: print results as machine-readable lines. */
  @Option(names = "--result-lines", hidden = true)
  boolean resultLines;

  @Spec
  CommandSpec spec;

  enum Netns { auto, off }

  static final class Scenarios implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
      return SCENARIOS.iterator();
    }
  }

  public static void main(String[] args) {
    System.exit(execute(args));
  }

  static int execute(String... args) {
    CommandLine cl = new CommandLine(new SoakMain());
    cl.registerConverter(Duration.class, Units::duration);
    cl.setParameterExceptionHandler((ex, a) -> {
      ex.getCommandLine().getErr().println("portshare-soak: " + ex.getMessage() + " (see --help)");
      return ExitCodes.USAGE;
    });
    cl.setErr(new PrintWriter(System.err, true));
    return cl.execute(args);
  }

  @Override
  public Integer call() throws Exception {
    for (String s : scenarios) {
      if (!SCENARIOS.contains(s)) {
        throw usage("--scenarios", s, "some of " + String.join(",", SCENARIOS));
      }
    }
    Path repository = root.toAbsolutePath().normalize();
    SoakConfig cfg = SoakConfig.quick(repository, portBase);
    cfg = new SoakConfig(jar("--rpc-jar", repository, rpcJar, cfg.rpcJar()),
        jar("--static-jar", repository, staticJar, cfg.staticJar()), cfg.deployDir(), portBase,
        positive("--short-connections", shortConnections, longRun ? 1_000_000L : cfg.shortConnections()),
        positive("--concurrent", concurrent, longRun ? 30_000 : cfg.concurrentConnections()),
        positive("--processes", processes, longRun ? 4 : cfg.processes()),
        positive("--rounds", rounds, longRun ? 5 : cfg.rollingRounds()),
        loadTime);
    if (loadTime.isZero()) {
      throw usage("--load-time", "0", "a positive duration");
    }
    if (portBase < 0 || portBase > 65535 - 20 * SCENARIOS.size()) {
      throw usage("--port-base", Integer.toString(portBase), "0, or a port that leaves room for every scenario");
    }
    if (!resultLines) {
      spec.commandLine().getOut().println(ScenarioResult.HEADER);
    }
    boolean allOk = true;
    Path scratch = Files.createTempDirectory("portshare-soak");
    try {
      for (String s : scenarios) {
        for (ScenarioResult r : run(s, cfg, scratch, netns, repository)) {
          allOk &= r.passed();
          System.out.println(resultLines ? serialize(r) : r.line());
          System.out.flush();
        }
      }
    } finally {
      deleteTree(scratch);
    }
    return allOk ? ExitCodes.OK : ExitCodes.SOFTWARE;
  }

  /**
   * The jar {@code service} names, or the usage error (exit 2) that says why there is none; the
   * repository's own when none is given.
   */
  private Path jar(String option, Path repository, String service, Path otherwise) throws IOException {
    if (service == null) {
      return otherwise;
    }
    try {
      return SoakConfig.serviceJar(repository, service);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), option + ": " + e.getMessage());
    }
  }

  private <T extends Number> T positive(String option, T given, T otherwise) {
    if (given == null) {
      return otherwise;
    }
    if (given.longValue() <= 0) {
      throw usage(option, given.toString(), "a positive whole number");
    }
    return given;
  }

  private ParameterException usage(String option, String value, String expected) {
    return new ParameterException(spec.commandLine(), "invalid value for " + option + ": \"" + value
        + "\"; expected " + expected);
  }

  static List<ScenarioResult> run(String scenario, SoakConfig cfg, Path scratch, Netns netns, Path root) {
    try {
      switch (scenario) {
        case "short-connections":
          return List.of(ShortConnections.run(cfg, cfg.shortConnections()));
        case "concurrent":
          return List.of(ConcurrentConnections.run(cfg, cfg.concurrentConnections(), 2,
              ConcurrentConnections.Service.RPC));
        case "concurrent-static":
          return List.of(ConcurrentConnections.run(cfg, cfg.concurrentConnections(), 2,
              ConcurrentConnections.Service.STATIC));
        case "sigkill":
          return List.of(ProcessKill.run(cfg, Math.max(2, cfg.processes() + 1), cfg.loadTime()));
        case "rolling":
          if (netns == Netns.auto && NetNamespace.available()) {
            List<ScenarioResult> both = new ArrayList<>();
            for (boolean migrate : new boolean[] {false, true}) {
              both.add(inNamespace("rolling", cfg, root, migrate));
            }
            return both;
          }
          return List.of(RollingRestart.run(cfg, cfg.processes(), cfg.rollingRounds(), ""));
        case "handover":
        case "handover-activate":
          // Held sockets need no migration: judged where the kernel would reset a closed listener's queue.
          if (netns == Netns.auto && NetNamespace.available()) {
            return List.of(inNamespace(scenario, cfg, root, false));
          }
          return List.of(SocketHandover.run(cfg, scenario.equals("handover-activate")));
        case "sigterm-rpc":
          return List.of(TermInFlight.rpc(cfg));
        case "sigterm-static":
          return List.of(TermInFlight.statics(cfg, scratch));
        case "slowloris":
          return List.of(SlowPeers.slowloris(cfg));
        default:
          return List.of(SlowPeers.rpcStalls(cfg));
      }
    } catch (Exception e) {
      return List.of(new ScenarioResult(scenario, "did not run to the end", 0, 1, "-", e.toString()
          .replace('\n', ' '), false));
    }
  }

  /** Runs one scenario as a child JVM inside a fresh namespace with migration on or off. */
  static ScenarioResult inNamespace(String scenario, SoakConfig cfg, Path root, boolean migrate) throws Exception {
    String name = "portshare-soak-" + ProcessHandle.current().pid() + "-" + scenario + (migrate ? "-m" : "-n");
    try (NetNamespace ns = NetNamespace.create(name, migrate)) {
      List<String> cmd = ns.wrap(List.of(ServiceProcess.javaBin(), "-cp", System.getProperty("java.class.path"),
          SoakMain.class.getName(), "--scenarios", scenario, "--netns", "off", "--result-lines",
          "--root", root.toString(), "--port-base", Integer.toString(cfg.portBase()),
          "--rpc-jar", cfg.rpcJar().toString(), "--static-jar", cfg.staticJar().toString(),
          "--processes", Integer.toString(cfg.processes()), "--rounds", Integer.toString(cfg.rollingRounds()),
          "--short-connections", Long.toString(cfg.shortConnections())));
      Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
      ScenarioResult result = null;
      try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
        String line;
        while ((line = in.readLine()) != null) {
          if (line.startsWith(RESULT)) {
            result = deserialize(line);
          }
        }
      }
      p.waitFor();
      if (result == null) {
        throw new IllegalStateException(scenario + " in namespace " + name + " gave no result (exit "
            + p.exitValue() + ")");
      }
      return result;
    }
  }

  static String serialize(ScenarioResult r) {
    return RESULT + String.join("\t", r.scenario(), r.what(), Long.toString(r.connections()),
        Long.toString(r.failures()), r.rss(), r.detail(), Boolean.toString(r.passed()));
  }

  static ScenarioResult deserialize(String line) {
    String[] f = line.substring(RESULT.length()).split("\t", -1);
    return new ScenarioResult(f[0], f[1], Long.parseLong(f[2]), Long.parseLong(f[3]), f[4], f[5],
        Boolean.parseBoolean(f[6]));
  }

  private static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }
}
