package io.portshare.bench.latency;

import io.portshare.bench.ledger.Contender;
import io.portshare.bench.ledger.Contenders;
import io.portshare.bench.ledger.ServersAndReports;
import io.portshare.bench.ledger.Window;
import io.portshare.bench.results.Machine;
import io.portshare.bench.results.RunCommand;
import io.portshare.bench.server.CEchoPeer;
import io.portshare.bench.server.ServiceJars;
import io.portshare.runtime.config.ExitCodes;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code portshare-bench latency}: open-loop latency at fixed shares of the floor's closed-loop
 * maximum, measured from each request's due time, one worker each side: nginx and static-server for
 * static files, the C echo server and rpc-server for RPC.
 */
@Command(name = "latency", mixinStandardHelpOptions = true,
    description = "Open-loop latency from the due time (no coordinated omission) at shares of the floor's closed-loop "
        + "maximum and past it, peers in the same run, one worker each side. Writes latency.csv, table.txt and "
        + "histograms/ under --out/<timestamp>-latency/.")
public final class LatencyCommand implements Callable<Integer> {

  private static final List<String> HTTP_SERVERS = List.of("nginx", "static-server");
  private static final List<String> RPC_SERVERS = List.of("c-echo", "rpc-server");

  @Spec
  CommandSpec spec;

  @Option(names = "--cells", split = ",",
      description = "columns (default: 1k.bin keep-alive, 1k.bin close, 64B|1x, 64B|1024x)")
  List<String> cellNames;

  @Option(names = "--shares", split = ",", defaultValue = "50,80,90,95",
      description = "rates as percent of the floor's closed-loop maximum, or of each server's capacity with --share-of "
          + "each (default: ${DEFAULT-VALUE})")
  List<Integer> shares;

  @Option(names = "--share-of", defaultValue = "floor", paramLabel = "floor|each",
      description = "what a share is of: floor, the floor's closed-loop maximum (every server at one rate); each, each "
          + "server's capacity, its closed-loop rate over the server cores it kept busy (every server equally busy) "
          + "(default: ${DEFAULT-VALUE})")
  String shareOf;

  @Option(names = "--past", split = ",", defaultValue = "105,120,150,200",
      description = "rates past the maximum, in order, until one counts errors (default: ${DEFAULT-VALUE})")
  List<Integer> past;

  @Mixin
  Window window = new Window("10s", "2s", "10s", 64);

  @Option(names = "--client-loops", defaultValue = "1",
      description = "the generator's event loops (default: ${DEFAULT-VALUE}, one worker each side)")
  int clientLoops;

  @Option(names = "--timeout", defaultValue = "2s",
      description = "a request without progress this long is a timeout; after a window, answers to requests due in it "
          + "are waited for this long (default: ${DEFAULT-VALUE})")
  Duration timeout;

  @Option(names = "--server-cpu", defaultValue = "0",
      description = "the CPU the servers are pinned to, or none (default: ${DEFAULT-VALUE})")
  String serverCpu;

  @Option(names = "--client-cpu", defaultValue = "1", description = "the CPU the generator is pinned to (default: ${DEFAULT-VALUE})")
  String clientCpu;

  @Option(names = "--quick", description = "a smoke run: 1s windows, shares 50,95 and 120, short warm-ups")
  boolean quick;

  @Option(names = "--port", defaultValue = "29300",
      description = "first server's port; each server gets the next ten (admin port PORT+1) (default: ${DEFAULT-VALUE})")
  int port;

  @Option(names = "--jvm", paramLabel = "NAME=FLAGS",
      description = "a way to run rpc-server and static-server, repeatable, for an A/B of collectors and heaps in one "
          + "run: each runs once per --jvm, as the row SERVER[NAME] beside the same peers, with FLAGS after "
          + "--server-jvm-options and its GC pauses (count, total, longest) beside the percentiles, e.g. "
          + "--jvm 'g1=-XX:+UseG1GC' --jvm 'parallel=-XX:+UseParallelGC' (default: none, one row per server)")
  List<String> jvm;

  @Option(names = "--server-java", paramLabel = "PATH",
      description = "the java launcher of rpc-server and static-server, e.g. a JDK 21 or later for generational ZGC "
          + "(default: the java running the bench)")
  Path serverJava;

  @Mixin
  ServersAndReports servers = new ServersAndReports();

  @Override
  public Integer call() throws IOException, InterruptedException {
    List<LatencyWorkload> workloads = cellNames == null ? LatencyWorkload.ALL
        : cellNames.stream().map(LatencyWorkload::named).toList();
    if (quick) {
      window.quick();
      shares = List.of(50, 95);
      past = List.of(120);
    }
    check(shares.stream().allMatch(s -> s > 0 && s <= 100), "--shares", shares, "percentages 1..100");
    check(past.stream().allMatch(s -> s > 100 && s <= 1000), "--past", past, "percentages 101..1000");
    RateBase rateBase = RateBase.named(shareOf);
    Duration duration = window.duration();
    Duration warmup = window.warmup();
    Duration serverWarmup = window.serverWarmup();
    int connections = window.connections();
    check(clientLoops >= 1 && clientLoops <= 64, "--client-loops", clientLoops, "1..64");
    check(!duration.isZero() && !duration.isNegative(), "--duration", duration, "a positive duration");
    check(!timeout.isZero() && !timeout.isNegative(), "--timeout", timeout, "a positive duration");
    check(serverCpu.matches("none|\\d+"), "--server-cpu", serverCpu, "a CPU number or none");
    check(clientCpu.matches("\\d+"), "--client-cpu", clientCpu, "a CPU number");
    check(serverJava == null || Files.isExecutable(serverJava), "--server-java", serverJava, "an executable java");
    List<JvmVariant> variants = jvm == null ? List.of() : jvm.stream().map(JvmVariant::parse).toList();
    check(variants.stream().map(JvmVariant::name).distinct().count() == variants.size(), "--jvm", jvm,
        "each NAME once");
    boolean http = workloads.stream().anyMatch(w -> w.kind() == Contender.Kind.HTTP);
    boolean rpc = workloads.stream().anyMatch(w -> w.kind() == Contender.Kind.RPC);
    CEchoPeer cEcho = servers.cEcho();
    ServiceJars jars = servers.jars();
    check(!rpc || cEcho.built(), "--c-echo", cEcho.path(), "the built C echo server (bench/peers/c-echo/build.sh)");
    check(!rpc || Files.isRegularFile(jars.rpcServer()), "--rpc-server-jar", jars.rpcServer(), "the packaged rpc-server jar");
    check(!http || Files.isRegularFile(jars.staticServer()), "--static-server-jar", jars.staticServer(), "the packaged static-server jar");
    String nginx = http ? servers.tools().nginx() : null;

    Path out = servers.reports().thisRun("-latency");
    Files.createDirectories(out);
    Path scratch = Files.createTempDirectory("portshare-latency");
    Files.setPosixFilePermissions(scratch, PosixFilePermissions.fromString("rwxr-xr-x")); // nginx's worker reads the site
    Path site = scratch.resolve("site");
    if (http) {
      Contenders.makeSite(site, List.of("1k.bin"), jars.staticServer());
    }
    String java = serverJava != null ? serverJava.toString() : ProcessHandle.current().info().command().orElse("java");
    Contenders starter = new Contenders(servers.sources(java, System.getProperty("java.class.path"), nginx,
        http ? servers.tools().nginxTemplate() : null), site, scratch, out.resolve("logs"));
    Map<String, String> meta = new LinkedHashMap<>();
    meta.put("command", RunCommand.of(spec));
    meta.putAll(Machine.describe()); // before pinning, which leaves this JVM one CPU
    Pinning pinning = new Pinning(serverCpu, clientCpu);
    pinning.client();
    meta.put("load average at start", Machine.loadAverage());
    meta.put("servers", "one worker each: nginx worker_processes 1, C echo -t 1, static-server and rpc-server "
        + "--instances 1 --mode reuseport (JVM flags: " + servers.serverJvmOptions()
        + (serverJava != null ? "; java: " + serverJava : "") + ")");
    if (!variants.isEmpty()) {
      meta.put("JVM variants", variants.stream().map(v -> v.name() + ": " + String.join(" ", v.flags()))
          .collect(Collectors.joining("; ")) + " (after the JVM flags above)");
    }
    meta.put("pinning", pinning.describe());
    meta.put("load", "this generator (raw Netty, " + clientLoops + " event loop(s)), " + connections + " connections; "
        + "closed loop for each server's maximum, then open loop at " + shares + "% of " + rateBase.describes() + " and " + past
        + "% until a rate counts errors; " + duration.toMillis() + " ms measured after " + warmup.toMillis()
        + " ms unmeasured per run, each server first warmed " + serverWarmup.toMillis() + " ms per column; "
        + "each run to its own 127.0.0.x");
    meta.put("latency", "from the time each request was due by the schedule to its whole answer; the window holds the "
        + "requests due in it, answers waited for up to " + timeout.toMillis() + " ms after it (unanswered: an error)");
    meta.put("flag", "FLAGGED when the rate reached is below " + Math.round(Verdict.RATE_SHARE * 100) + "% of the rate asked, the "
        + "generator kept " + Math.round(Verdict.BUSY_SHARE * 100) + "% or more of its cores busy, or the rate asked is above "
        + "the generator's floor");

    LatencyLadder ladder = new LatencyLadder(new LatencyLadder.Plan(shares, rateBase, past, warmup, duration, serverWarmup,
        connections, clientLoops, timeout), out.resolve("histograms"), System.out);
    int next = 0;
    Map<String, String> collectors = new LinkedHashMap<>();
    for (LatencyWorkload w : workloads) {
      List<Contender> started = new ArrayList<>();
      Map<String, GcLog> gcLogs = new LinkedHashMap<>();
      try {
        for (Contenders.Spec s : rows(w, variants, out.resolve("logs"), gcLogs)) {
          int p = port + 10 * next++;
          System.out.printf("starting %s on port %d for %s%n", s.name(), p, w.label());
          Contender c = starter.start(s, p);
          started.add(c);
          pinning.server(c.pids());
          if (gcLogs.containsKey(s.name())) {
            collectors.put(s.name(), gcLogs.get(s.name()).collector()); // written as the JVM starts, before it is ready
          }
        }
        ladder.climb(w, started, gcLogs);
      } finally {
        started.forEach(Contender::close);
      }
    }
    if (!variants.isEmpty()) {
      meta.put("GC", "each JVM server's own log (-Xlog:gc,gc+phases, kept in logs/), the stop-the-world pauses that "
          + "ended in each window; collectors in use: " + collectors.entrySet().stream()
          .map(e -> e.getKey() + " " + e.getValue()).collect(Collectors.joining(", ")));
    }
    meta.put("load average at end", Machine.loadAverage());
    LatencyReport report = new LatencyReport(meta, ladder.cells());
    Files.writeString(out.resolve("latency.csv"), report.csv(), StandardCharsets.UTF_8);
    Files.writeString(out.resolve("table.txt"), report.text(), StandardCharsets.UTF_8);
    System.out.print(report.text());
    System.out.println("reports: " + out);
    return ExitCodes.OK;
  }



  /**
   * The rows of a column, the floor first: the peer as it is, each JVM server once per variant (alternated with
   * the peer in every rung as the plain rows are) with a GC log of its own in {@code logs}, put in {@code gcLogs}.
   */
  static List<Contenders.Spec> rows(LatencyWorkload w, List<JvmVariant> variants, Path logs, Map<String, GcLog> gcLogs) {
    List<Contenders.Spec> rows = new ArrayList<>();
    for (String name : w.kind() == Contender.Kind.HTTP ? HTTP_SERVERS : RPC_SERVERS) {
      boolean peer = name.equals("nginx") || name.equals("c-echo");
      if (peer || variants.isEmpty()) {
        rows.add(new Contenders.Spec(name, name));
        continue;
      }
      for (JvmVariant v : variants) {
        String file = (name + "-" + v.name() + "-" + w.label()).replaceAll("[^A-Za-z0-9.-]+", "_") + "-gc.log";
        GcLog log = new GcLog(logs.resolve(file).toAbsolutePath());
        List<String> flags = new ArrayList<>(v.flags());
        flags.add(log.jvmFlag());
        rows.add(new Contenders.Spec(v.row(name), name, null, null, List.copyOf(flags), List.of()));
        gcLogs.put(v.row(name), log);
      }
    }
    return rows;
  }

  private static void check(boolean ok, String option, Object value, String expected) {
    if (!ok) {
      throw new IllegalArgumentException("invalid value for " + option + ": " + value + "; expected " + expected);
    }
  }
}
