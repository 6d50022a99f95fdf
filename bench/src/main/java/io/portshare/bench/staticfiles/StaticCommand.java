package io.portshare.bench.staticfiles;

import io.portshare.bench.results.Machine;
import io.portshare.bench.results.OutDir;
import io.portshare.bench.results.Results;
import io.portshare.bench.results.ResultsText;
import io.portshare.bench.results.ResultsWriter;
import io.portshare.bench.results.RunCommand;
import io.portshare.bench.results.Table;
import io.portshare.bench.server.ServerArgs;
import io.portshare.bench.server.ServerJar;
import io.portshare.runtime.config.ExitCodes;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ThreadLocalRandom;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code portshare-bench static}: the static-file table, static-server against nginx, with wrk. */
@Command(name = "static", mixinStandardHelpOptions = true,
    description = {"The static-file table: starts static-server and nginx on the same files, checks both serve them "
        + "byte for byte, warms static-server, then runs wrk against each in alternated rounds (keep-alive and "
        + "Connection: close) and measures server CPU per GB of a big file with sendfile and copying.",
        "Writes table.txt, results.json, results.csv and report.html under --out/<timestamp>/.",
        "Both servers listen on every address of their ports during the run (each wrk run has its own 127.0.0.x "
            + "destination); the traffic stays on loopback."})
public final class StaticCommand implements Callable<Integer> {

  @Spec
  CommandSpec spec;

  @Option(names = "--duration", defaultValue = "3s", description = "each measured wrk run (default: ${DEFAULT-VALUE})")
  Duration duration;

  @Option(names = "--warmup", defaultValue = "30s",
      description = "least unmeasured load on static-server before measuring, spread over every file and kind of "
          + "connection; each goes on until its server CPU per request settles (default: ${DEFAULT-VALUE})")
  Duration warmup;

  @Option(names = "--warmup-max", defaultValue = "150s", description = "most warm-up in all (default: ${DEFAULT-VALUE})")
  Duration warmupMax;

  @Option(names = "--rounds", defaultValue = "3", description = "rounds; the server going first alternates (default: ${DEFAULT-VALUE})")
  int rounds;

  @Option(names = "--connections", defaultValue = "64", description = "wrk -c (default: ${DEFAULT-VALUE})")
  int connections;

  @Option(names = "--threads", defaultValue = "2", description = "wrk -t (default: ${DEFAULT-VALUE})")
  int threads;

  @Option(names = "--workers", description = "static-server event loops and nginx workers (default: CPUs)")
  Integer workers;

  @Option(names = "--mode", defaultValue = "reuseport", description = "static-server's --mode (default: ${DEFAULT-VALUE})")
  String mode;

  @Option(names = "--paths", split = ",", defaultValue = "1k.bin,8k.bin,16k.bin,24k.bin,index.html",
      description = "files to request: Nk.bin (N KiB of random bytes), index.html (the 4.1 KB demo page) "
          + "(default: ${DEFAULT-VALUE})")
  List<String> paths;

  @Option(names = "--connection", split = ",", defaultValue = "keep-alive,close",
      description = "keep-alive, close (one request per connection), or both (default: ${DEFAULT-VALUE})")
  List<String> connectionKinds;

  @Option(names = "--big-file", defaultValue = "100m.bin", description = "the big file, Nm.bin (default: ${DEFAULT-VALUE})")
  String bigFile;

  @Option(names = "--big-rounds", defaultValue = "3",
      description = "rounds of the big-file CPU measurement; 0 leaves that table out (default: ${DEFAULT-VALUE})")
  int bigRounds;

  @Option(names = "--big-fetches", defaultValue = "10", description = "downloads per big-file measurement (default: ${DEFAULT-VALUE})")
  int bigFetches;

  @Option(names = "--port", defaultValue = "18080",
      description = "static-server's port; admin PORT+1, its --no-sendfile twin PORT+2 and PORT+3 (default: ${DEFAULT-VALUE})")
  int port;

  @Option(names = "--nginx-port", defaultValue = "18090",
      description = "nginx's port; its sendfile-off twin NGINX_PORT+1 (default: ${DEFAULT-VALUE})")
  int nginxPort;

  @Mixin
  ServerArgs serverArgs = new ServerArgs();

  @Mixin
  HttpTools tools = new HttpTools();

  @Mixin
  ServerJar server = new ServerJar("static-server");

  @Mixin
  OutDir reports = new OutDir();

  @Override
  public Integer call() throws IOException, InterruptedException {
    StaticPlan plan = plan();
    Path dir = reports.thisRun("");
    Map<String, String> meta = meta(plan);
    System.out.println("static files: " + plan.paths().size() * plan.closeKinds().size() + " cases x 2 servers x "
        + plan.rounds() + " rounds, load average " + meta.get("load average at start") + "; reports in " + dir);
    List<Table> tables = new StaticBench(plan, System.out).run(meta);
    meta.put("load average at end", Machine.loadAverage());
    Results results = new Results("portshare static files against nginx", meta, tables);
    ResultsWriter.writeAll(results, dir);
    System.out.println();
    tables.forEach(t -> System.out.println(ResultsText.table(t)));
    System.out.println("written: " + dir.resolve("report.html") + " (and table.txt, results.json, results.csv)");
    return results.anyErrors() ? ExitCodes.SOFTWARE : ExitCodes.OK;
  }

  StaticPlan plan() {
    positive("--rounds", rounds);
    positive("--connections", connections);
    positive("--threads", threads);
    positive("--big-fetches", bigFetches);
    if (bigRounds < 0) {
      throw new IllegalArgumentException("invalid value for --big-rounds: " + bigRounds + "; expected 0 or more");
    }
    if (duration.toSeconds() < 1) {
      throw new IllegalArgumentException("invalid value for --duration: " + duration + "; wrk needs at least 1s");
    }
    for (String p : paths) {
      if (!Site.makes(p)) {
        throw new IllegalArgumentException("invalid value for --paths: \"" + p + "\"; expected Nk.bin or index.html");
      }
    }
    if (!bigFile.matches("\\d+m\\.bin")) {
      throw new IllegalArgumentException("invalid value for --big-file: \"" + bigFile + "\"; expected Nm.bin");
    }
    List<Boolean> kinds = new ArrayList<>();
    for (String k : connectionKinds) {
      switch (k.trim().toLowerCase(Locale.ROOT)) {
        case "keep-alive" -> kinds.add(false);
        case "close" -> kinds.add(true);
        default -> throw new IllegalArgumentException("invalid value for --connection: \"" + k
            + "\"; expected keep-alive or close");
      }
    }
    int w = workers != null ? workers : Runtime.getRuntime().availableProcessors();
    positive("--workers", w);
    if (port < 1 || port > 65535 - 3) {
      throw new IllegalArgumentException("invalid value for --port: " + port + "; expected 1..65532");
    }
    boolean overlaps = nginxPort <= port + 3 && nginxPort + 1 >= port; // PORT..PORT+3 against NGINX_PORT..+1
    if (nginxPort < 1 || nginxPort > 65535 - 1 || overlaps) {
      throw new IllegalArgumentException("invalid value for --nginx-port: " + nginxPort
          + "; expected 1..65534, clear of --port .. --port+3");
    }
    Path serverJar = server.requireJar();
    Path nginxTemplate = tools.nginxTemplate();
    String nginxBin = tools.nginx();
    String wrkBin = tools.wrk();
    Path dirParent = Path.of(System.getProperty("java.io.tmpdir"));
    List<String> extra = serverArgs.list();
    return new StaticPlan(serverJar, server.jvmOptions(), extra, mode, w, port, nginxBin, nginxTemplate, nginxPort,
        new Wrk(wrkBin, threads, connections), paths, kinds, rounds, duration, warmup, maxWarmup(), bigFile, bigRounds, bigFetches,
        dirParent, reports.shared("servers"), ThreadLocalRandom.current().nextInt(2, 255));
  }

  private Duration maxWarmup() {
    return warmupMax.compareTo(warmup) < 0 ? warmup : warmupMax;
  }

  private static void positive(String flag, int v) {
    if (v < 1) {
      throw new IllegalArgumentException("invalid value for " + flag + ": " + v + "; expected at least 1");
    }
  }

  private Map<String, String> meta(StaticPlan plan) {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("command", RunCommand.of(spec));
    m.putAll(Machine.describe());
    m.put("static-server", plan.serverJar() + ", " + plan.workers() + " event loops, --mode " + plan.mode()
        + (plan.serverArgs().isEmpty() ? "" : ", " + String.join(" ", plan.serverArgs()))
        + ", JVM " + String.join(" ", plan.serverJvmOptions()));
    m.put("nginx", Tools.version(plan.nginx(), "-v") + ", " + plan.workers() + " workers, " + plan.nginxTemplate());
    m.put("wrk", Tools.version(plan.wrk().command("", false, Duration.ofSeconds(1)).get(0), "--version") + ", -t"
        + plan.wrk().threads() + " -c" + plan.wrk().connections() + " -d" + plan.duration().toSeconds() + "s");
    m.put("rounds", plan.rounds() + " (the server going first and the order of cases alternate)");
    m.put("warm-up", plan.warmup().toSeconds() + "-" + plan.warmupMax().toSeconds() + " s of load on static-server over "
        + "every path before measuring, each path until " + WarmUpRule.AGREEING + " runs of " + WarmUpRule.STEP.toSeconds()
        + " s agree within "
        + Math.round(WarmUpRule.TOLERANCE * 100) + "% on server CPU per request");
    m.put("big file", plan.bigRounds() > 0 ? plan.bigPath() + ", " + plan.bigFetches() + " downloads x "
        + plan.bigRounds() + " rounds per variant" : "not measured");
    m.put("client-bound", "in at least half the rounds wrk used more CPU than the server, or kept its threads 90% busy");
    m.put("load average at start", Machine.loadAverage());
    return m;
  }
}
