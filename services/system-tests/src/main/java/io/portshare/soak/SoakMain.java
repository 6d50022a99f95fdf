package io.portshare.soak;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs the load and fault scenarios against the real service jars and prints one line each: what
 * it did, connections, failures, server RSS. Exit 0 when every scenario held, 1 when one did not,
 * 2 on bad usage.
 *
 * <pre>
 * java -jar services/system-tests/target/portshare-soak.jar [--long] [--scenarios a,b]
 *     [--root DIR] [--port-base 59000] [--short-connections N] [--concurrent N] [--processes N]
 *     [--rounds N] [--netns auto|off]
 * </pre>
 */
public final class SoakMain {

  static final List<String> SCENARIOS = List.of("short-connections", "concurrent", "concurrent-static", "sigkill", "rolling",
      "sigterm-rpc", "sigterm-static", "slowloris", "rpc-stalls", "handover", "handover-activate");
  private static final String RESULT = "RESULT\t";

  private SoakMain() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> flags;
    try {
      flags = parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println("soak: " + e.getMessage());
      System.exit(2);
      return;
    }
    if (flags.containsKey("help")) {
      System.out.println("usage: SoakMain [--long] [--scenarios " + String.join(",", SCENARIOS) + "]");
      System.out.println("  [--root DIR] [--port-base N] [--short-connections N] [--concurrent N] [--processes N]");
      System.out.println("  [--rounds N] [--netns auto|off]");
      return;
    }
    boolean longRun = flags.containsKey("long");
    Path root = Path.of(flags.getOrDefault("root", ".")).toAbsolutePath().normalize();
    SoakConfig q = SoakConfig.quick(root, intFlag(flags, "port-base", 59000));
    SoakConfig cfg = new SoakConfig(q.rpcJar(), q.staticJar(), q.deployDir(), q.portBase(),
        longFlag(flags, "short-connections", longRun ? 1_000_000 : q.shortConnections()),
        intFlag(flags, "concurrent", longRun ? 30_000 : q.concurrentConnections()),
        intFlag(flags, "processes", longRun ? 4 : q.processes()),
        intFlag(flags, "rounds", longRun ? 5 : q.rollingRounds()), q.seconds());
    List<String> chosen = flags.containsKey("scenarios") ? List.of(flags.get("scenarios").split(",")) : SCENARIOS;
    for (String s : chosen) {
      if (!SCENARIOS.contains(s)) {
        System.err.println("soak: unknown scenario \"" + s + "\"; expected some of " + String.join(",", SCENARIOS));
        System.exit(2);
      }
    }
    boolean child = flags.containsKey("result-lines");
    if (!child) {
      System.out.println(ScenarioResult.HEADER);
    }
    boolean allOk = true;
    Path scratch = Files.createTempDirectory("portshare-soak");
    try {
      for (String s : chosen) {
        for (ScenarioResult r : run(s, cfg, scratch, flags.getOrDefault("netns", "auto"), root)) {
          allOk &= r.passed();
          System.out.println(child ? serialize(r) : r.line());
          System.out.flush();
        }
      }
    } finally {
      deleteTree(scratch);
    }
    System.exit(allOk ? 0 : 1);
  }

  static List<ScenarioResult> run(String scenario, SoakConfig cfg, Path scratch, String netns, Path root) {
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
          return List.of(ProcessKill.run(cfg, Math.max(2, cfg.processes() + 1), cfg.seconds()));
        case "rolling":
          if (!"off".equals(netns) && NetNamespace.available()) {
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
          if (!"off".equals(netns) && NetNamespace.available()) {
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
      List<String> cmd = ns.wrap(List.of(ServerProcess.javaBin(), "-cp", System.getProperty("java.class.path"),
          SoakMain.class.getName(), "--scenarios", scenario, "--netns", "off", "--result-lines",
          "--root", root.toString(), "--port-base", Integer.toString(cfg.portBase()),
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

  private static Map<String, String> parse(String[] args) {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (!a.startsWith("--")) {
        throw new IllegalArgumentException("unexpected argument \"" + a + "\" (see --help)");
      }
      String name = a.substring(2);
      if (List.of("long", "help", "result-lines").contains(name)) {
        m.put(name, "");
      } else if (List.of("scenarios", "root", "port-base", "short-connections", "concurrent", "processes", "rounds",
          "netns").contains(name)) {
        if (i + 1 >= args.length) {
          throw new IllegalArgumentException("option " + a + " needs a value");
        }
        m.put(name, args[++i]);
      } else {
        throw new IllegalArgumentException("unknown option " + a + " (see --help)");
      }
    }
    return m;
  }

  private static int intFlag(Map<String, String> flags, String name, int dflt) {
    return (int) longFlag(flags, name, dflt);
  }

  private static long longFlag(Map<String, String> flags, String name, long dflt) {
    String v = flags.get(name);
    if (v == null) {
      return dflt;
    }
    try {
      long n = Long.parseLong(v.replace("_", ""));
      if (n < 0 || (n == 0 && !name.equals("port-base"))) {
        throw new NumberFormatException();
      }
      return n;
    } catch (NumberFormatException e) {
      System.err.println("soak: invalid value for " + name + ": \"" + v + "\"; expected a positive whole number");
      System.exit(2);
      return dflt;
    }
  }

  private static void deleteTree(Path dir) throws java.io.IOException {
    try (var paths = Files.walk(dir)) {
      paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }
}
