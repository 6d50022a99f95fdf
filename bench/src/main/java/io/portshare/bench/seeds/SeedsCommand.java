package io.portshare.bench.seeds;

import static io.portshare.bench.seeds.PlanChecks.needs;
import static io.portshare.bench.seeds.PlanChecks.positive;
import static io.portshare.bench.seeds.PlanChecks.requireFile;

import io.portshare.bench.ledger.ServersAndReports;
import io.portshare.bench.load.CLoadClient;
import io.portshare.bench.results.Machine;
import io.portshare.bench.results.Metric;
import io.portshare.bench.results.Results;
import io.portshare.bench.results.Row;
import io.portshare.bench.results.RunCommand;
import io.portshare.bench.results.Table;
import io.portshare.bench.server.CEchoPeer;
import io.portshare.bench.server.ServerArgs;
import io.portshare.bench.server.ServiceJars;
import io.portshare.runtime.config.ExitCodes;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ThreadLocalRandom;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code portshare-bench seeds}: the five source experiments re-run here, each beside its published table. */
@Command(name = "seeds", mixinStandardHelpOptions = true,
    description = {"Re-runs the five source experiments (seeds 000-004) on this machine and writes each beside its "
        + "published table, with the effect each seed found and whether this run shows it.",
        "000: 30,000 concurrent Connection: close connections (wrk), one socket against a socket per worker; "
            + "001: parallel httperf sessions, the accept path; 002: sendfile against copying over loopback, three "
            + "CPU pinnings; 003: the RPC table at 1-16 workers; 004: static-server --transport epoll against "
            + "io_uring past saturation, one request per connection: each one's closed-loop maximum, then open-loop "
            + "rates beyond it.",
        "Defaults take about 20 minutes on 2 CPUs; --published runs the published lengths (000: 2-minute runs; "
            + "001: 4 httperf rounds; 004: 10 s windows). Writes table.txt, "
            + "results.json, results.csv and report.html under --out/<timestamp>-seeds/."})
public final class SeedsCommand implements Callable<Integer> {

  @Spec
  CommandSpec spec;

  static final List<String> ALL = List.of("000", "001", "002", "003", "004");

  @Option(names = "--seed", split = ",", description = "seeds to run, e.g. 000 or 001,004 (default: all)")
  List<String> seeds;

  @Option(names = "--published",
      description = "the published lengths: 2-minute runs in 000, 4 httperf rounds in 001, 10 s windows in 004 (the "
          + "published run: 30,000 connections at 3,000/s)")
  boolean published;

  @Mixin
  CloseStormOptions closeStorm = new CloseStormOptions();

  @Option(names = "--rounds", defaultValue = "1",
      description = "000, 002, 003 and 004: rounds, the order alternating (default: ${DEFAULT-VALUE})")
  int rounds;

  @Option(names = "--httperfs", description = "001: parallel httperf processes (default: 2 per CPU; the seed ran 16)")
  Integer httperfs;

  @Option(names = "--sessions", defaultValue = "5000",
      description = "001: sessions per httperf, --wsess=N,1,1 (default: ${DEFAULT-VALUE})")
  int sessions;

  @Option(names = "--httperf-rounds", description = "001: rounds (default: 2; --published: 4)")
  Integer httperfRounds;

  @Option(names = "--httperf-limit", defaultValue = "90s",
      description = "001: most time an httperf run may take; at the limit it stops and reports what it did "
          + "(default: ${DEFAULT-VALUE})")
  Duration httperfLimit;

  @Option(names = "--files", defaultValue = "60", description = "002: files (default: ${DEFAULT-VALUE})")
  int files;

  @Option(names = "--file-kib", defaultValue = "300", description = "002: KiB per file (default: ${DEFAULT-VALUE})")
  int fileKib;

  @Option(names = "--transfer", defaultValue = "5s",
      description = "002: measured time per cell (default: ${DEFAULT-VALUE})")
  Duration transfer;

  @Option(names = "--rpc-workers", split = ",", defaultValue = "1,2,4,8,16",
      description = "003: worker counts (default: ${DEFAULT-VALUE})")
  List<Integer> rpcWorkers;

  @Option(names = "--rpc-modes", split = ",",
      description = "003: rows, of one-socket, shared, reuseport, pinned, c-epoll (default: all; c-epoll when built)")
  List<String> rpcModes;

  @Option(names = "--rpc-duration", defaultValue = "2s", description = "003: measured per cell (default: ${DEFAULT-VALUE})")
  Duration rpcDuration;

  @Option(names = "--rpc-warmup", defaultValue = "1s", description = "003: unmeasured before each cell (default: ${DEFAULT-VALUE})")
  Duration rpcWarmup;

  @Option(names = "--rpc-connections", defaultValue = "32", description = "003: connections (default: ${DEFAULT-VALUE})")
  int rpcConnections;

  @Mixin
  OverloadOptions overload = new OverloadOptions();

  @Option(names = "--workers", description = "000, 001, 004: static-server workers and nginx workers (default: CPUs)")
  Integer workers;

  @Option(names = "--server-warmup", defaultValue = "15s",
      description = "unmeasured wrk load on each static-server after it starts, over its files (default: ${DEFAULT-VALUE})")
  Duration serverWarmup;

  @Option(names = "--port", defaultValue = "17100",
      description = "the servers listen from this port upwards, a few ports each (default: ${DEFAULT-VALUE})")
  int port;

  @Mixin
  ServersAndReports servers = new ServersAndReports("-Xmx256m -XX:+ExitOnOutOfMemoryError");

  @Mixin
  ServerArgs serverArgs = new ServerArgs();

  @Mixin
  CLoadClient cLoad = new CLoadClient();

  @Override
  public Integer call() throws IOException, InterruptedException {
    SeedPlan plan = plan();
    Path dir = servers.reports().thisRun("-seeds");
    Map<String, String> meta = new LinkedHashMap<>();
    meta.put("command", RunCommand.of(spec));
    meta.putAll(Machine.describe());
    meta.put("load average at start", Machine.loadAverage());
    System.out.println("seeds " + String.join(", ", plan.seeds()) + "; reports in " + dir);
    List<Table> tables = new ArrayList<>();
    List<Effect> effects = new ArrayList<>();
    boolean failed = false;
    try (Lab lab = new Lab(plan, System.out)) {
      for (String seed : plan.seeds()) {
        meta.put("seed " + seed + " scaled", Conditions.of(seed, plan, lab.cpus));
        Table published = Published.of(seed);
        Table here;
        try {
          here = run(seed, lab, meta);
        } catch (IOException | RuntimeException e) {
          failed = true;
          System.out.println("seed " + seed + " failed: " + e.getMessage());
          here = null;
          meta.put("seed " + seed + " failed", String.valueOf(e.getMessage()));
        }
        tables.add(published);
        tables.add(here != null ? here : new Table(seed, "Seed " + seed + " on this machine", List.of(
            new Metric("none", "-", 0)), List.of("-"), List.of(new Row("failed", List.of(),
            meta.get("seed " + seed + " failed"))), null));
        effects.add(Effects.of(seed, published, here));
        if (seed.equals("000")) {
          effects.add(Effects.closeErrors(here, plan.connections()));
        }
      }
    }
    for (Effect e : effects) {
      meta.put(SeedReport.EFFECT + e.seed() + (meta.containsKey(SeedReport.EFFECT + e.seed()) ? " (target)" : ""), e.line());
    }
    meta.put("load average at end", Machine.loadAverage());
    Results results = new Results(SeedReport.TITLE, meta, tables);
    System.out.println();
    System.out.print(SeedReport.tables(results));
    System.out.println(SeedReport.text(effects));
    System.out.flush();
    SeedReport.write(results, dir);
    System.out.println("written: " + dir.resolve("report.html") + " (and table.txt, results.json, results.csv)");
    return failed ? ExitCodes.SOFTWARE : ExitCodes.OK;
  }

  private static Table run(String seed, Lab lab, Map<String, String> meta) throws IOException, InterruptedException {
    return switch (seed) {
      case "000" -> new CloseStorm(lab).run();
      case "001" -> new SessionLoad(lab).run();
      case "002" -> new SendfileLoopback(lab).run();
      case "003" -> new RpcWorkers(lab).run(meta);
      case "004" -> new ConnectionChurn(lab).run(meta);
      default -> throw new IllegalArgumentException("no seed " + seed);
    };
  }

  SeedPlan plan() {
    List<String> chosen = seeds == null ? ALL : seeds.stream().map(String::trim).toList();
    for (String s : chosen) {
      if (!ALL.contains(s)) {
        throw new IllegalArgumentException("invalid value for --seed: \"" + s + "\"; expected one of "
            + String.join(", ", ALL));
      }
    }
    int cpus = Runtime.getRuntime().availableProcessors();
    Duration closeDuration = closeStorm.duration(published);
    int httperfRuns = httperfRounds != null ? httperfRounds : published ? 4 : 2;
    int parallel = httperfs != null ? httperfs : 2 * cpus;
    int w = workers != null ? workers : cpus;
    int wrkProcesses = closeStorm.wrkProcesses();
    positive("--rounds", rounds);
    positive("--httperfs", parallel);
    positive("--sessions", sessions);
    positive("--httperf-rounds", httperfRuns);
    positive("--files", files);
    positive("--file-kib", fileKib);
    positive("--rpc-connections", rpcConnections);
    OverloadPlan overloadPlan = overload.plan(published, rounds);
    positive("--workers", w);
    if (transfer.isZero() || transfer.isNegative()) {
      throw new IllegalArgumentException("invalid value for --transfer: " + transfer + "; expected more than 0");
    }
    if (rpcDuration.isZero() || rpcDuration.isNegative()) {
      throw new IllegalArgumentException("invalid value for --rpc-duration: " + rpcDuration + "; expected more than 0");
    }
    for (int n : rpcWorkers) {
      if (n < 1 || n > 64) {
        throw new IllegalArgumentException("invalid value for --rpc-workers: " + n + "; expected 1..64");
      }
    }
    CEchoPeer cEcho = servers.cEcho();
    ServiceJars jars = servers.jars();
    boolean hasC = cEcho.built();
    List<String> modes = rpcModes != null ? rpcModes
        : RpcWorkers.MODES.stream().filter(m -> hasC || !m.equals("c-epoll")).toList();
    for (String m : modes) {
      if (!RpcWorkers.MODES.contains(m)) {
        throw new IllegalArgumentException("invalid value for --rpc-modes: \"" + m + "\"; expected "
            + String.join("|", RpcWorkers.MODES));
      }
    }
    int maxWorkers = rpcWorkers.stream().mapToInt(Integer::intValue).max().orElse(1);
    if (port < 1024 || port > 65535 - 200 - maxWorkers) {
      throw new IllegalArgumentException("invalid value for --port: " + port + "; expected 1024.." + (65535 - 200 - maxWorkers));
    }
    boolean needsStatic = chosen.stream().anyMatch(s -> !s.equals("003"));
    if (needsStatic) {
      requireFile("--static-server-jar", jars.staticServer(), "build it with ./mvnw -B -pl static-server -am package -DskipTests");
    }
    if (chosen.contains("003")) {
      requireFile("--rpc-server-jar", jars.rpcServer(), "build it with ./mvnw -B -pl rpc-server -am package -DskipTests");
      if (modes.contains("c-epoll") && !hasC) {
        throw new IllegalArgumentException("no C echo server at " + cEcho.path() + "; build it with bench/peers/c-echo/build.sh");
      }
    }
    String nginxBin = needsStatic ? servers.tools().nginx() : null;
    Path nginxTemplate = needsStatic ? servers.tools().nginxTemplate() : null;
    // 000 loads with wrk; 001 and 004 warm static-server with it (004 loads with this bench's generator).
    String wrkBin = chosen.stream().anyMatch(List.of("000", "001", "004")::contains) ? servers.tools().wrk() : null;
    String httperfBin = needs(chosen, List.of("001"), "httperf", "install httperf (apt-get install httperf)");
    needs(chosen, List.of("000", "003"), "systemd-socket-activate", "install systemd (apt-get install systemd)");
    needs(chosen, List.of("002"), "taskset", "install util-linux");
    List<String> jvm = servers.serverJvmOptions().list();
    List<String> extra = new ArrayList<>();
    extra.addAll(serverArgs.list());
    String java = ProcessHandle.current().info().command().orElse("java");
    return new SeedPlan(chosen, closeStorm.connections, wrkProcesses, closeStorm.sizes(), closeDuration,
        closeStorm.wrkTimeout(closeDuration), rounds,
        parallel, sessions, httperfRuns, httperfLimit,
        files, fileKib, transfer, rounds,
        rpcWorkers, modes, rpcDuration, rpcWarmup, rpcConnections, rounds,
        overloadPlan,
        w, serverWarmup, port, jars.staticServer(), jars.rpcServer(), jvm, extra, nginxBin, nginxTemplate, wrkBin, httperfBin, cEcho.path(), cLoad.path(),
        java, System.getProperty("java.class.path"), Path.of(System.getProperty("java.io.tmpdir")),
        servers.reports().shared("servers"), ThreadLocalRandom.current().nextInt(2, 255));
  }
}
