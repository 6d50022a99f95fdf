package io.portshare.bench.staticfiles;

import io.portshare.bench.cpu.CpuTime;
import io.portshare.bench.results.Cell;
import io.portshare.bench.results.ClientBound;
import io.portshare.bench.results.Metric;
import io.portshare.bench.results.Ratio;
import io.portshare.bench.results.Round;
import io.portshare.bench.results.Row;
import io.portshare.bench.results.Table;
import io.portshare.bench.server.ServerProcesses;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The static-file benchmark: static-server against nginx on the same files, in one run on one
 * machine. Starts both (nginx from the template, in a scratch directory its workers can read),
 * checks each serves the files' exact bytes, warms every path the JIT will take (each file with
 * keep-alive and with {@code Connection: close}), then measures with wrk round by round, the
 * server that goes first alternating; then the server CPU per GB of a big file with sendfile and
 * copying. Server CPU comes from {@code /proc}, wrk's from this JVM's reaped-children counters.
 */
public final class StaticBench {

  public static final String OURS = "static-server";
  public static final String NGINX = "nginx";

  static final List<Metric> FILE_METRICS = List.of(
      new Metric("requestsPerSecond", "requests/s", 0),
      new Metric("serverCpuUsPerRequest", "server CPU µs/request", 1),
      new Metric("serverUserUsPerRequest", "server user µs/request", 1),
      new Metric("serverSystemUsPerRequest", "server system µs/request", 1),
      new Metric("clientCpuUsPerRequest", "wrk CPU µs/request", 1),
      new Metric("latencyAvgMs", "latency avg ms", 2),
      new Metric("latencyP99Ms", "latency p99 ms", 2));

  static final List<Metric> BIG_METRICS = List.of(
      new Metric("cpuSecondsPerGb", "server CPU-s/GB", 3),
      new Metric("userSecondsPerGb", "server user s/GB", 3),
      new Metric("systemSecondsPerGb", "server system s/GB", 3));

  private static final double GIB = 1024.0 * 1024 * 1024;

  private final StaticPlan plan;
  private final PrintStream log;
  private final Loopback addresses;
  private final int cpus = Runtime.getRuntime().availableProcessors();
  private Path site;

  public StaticBench(StaticPlan plan, PrintStream log) {
    this.plan = plan;
    this.log = log;
    this.addresses = new Loopback(plan.firstAddress());
  }

  /** Runs everything; {@code meta} receives what ran (versions, commands) as it is learnt. */
  public List<Table> run(Map<String, String> meta) throws IOException, InterruptedException {
    Path scratch = Files.createTempDirectory(plan.scratchParent(), "portshare-static-bench");
    Site.readable(scratch, true); // nginx's workers may run as another user: not the 0700 of a temp dir
    try {
      site = scratch.resolve("site");
      log.println("writing the site (" + String.join(", ", plan.sitePaths()) + ")");
      Site.create(site, plan.sitePaths(), plan.serverJar());
      List<Table> tables = new ArrayList<>();
      try (Peer ours = startOurs(OURS, plan.port(), List.of());
          Peer nginx = startNginx(NGINX, scratch.resolve("nginx"), plan.nginxPort(), true)) {
        meta.put("static-server mode", ours.processes().reportedMode());
        check(ours);
        check(nginx);
        meta.put("warm-up, server CPU µs/request of each " + WarmUpRule.STEP.toSeconds() + " s run", warm(ours, nginx));
        tables.add(files(ours, nginx));
        if (plan.bigRounds() > 0) {
          tables.add(bigFile(ours, nginx, scratch));
        }
      }
      return tables;
    } finally {
      delete(scratch);
    }
  }

  /** static-server's command line: the jar as an operator runs it, on every address. */
  public static List<String> ourCommand(String java, StaticPlan plan, Path site, int port, List<String> extra) {
    List<String> cmd = new ArrayList<>();
    cmd.add(java);
    cmd.addAll(plan.serverJvmOptions());
    cmd.addAll(List.of("-jar", plan.serverJar().toString(), "--root", site.toString(), "--host", "0.0.0.0",
        "--port", Integer.toString(port), "--admin-port", Integer.toString(port + 1),
        "--instances", Integer.toString(plan.workers()), "--mode", plan.mode()));
    cmd.addAll(plan.serverArgs());
    cmd.addAll(extra);
    return cmd;
  }

  private Peer startOurs(String name, int port, List<String> extra) throws IOException {
    List<String> cmd = ourCommand(ProcessHandle.current().info().command().orElse("java"), plan, site, port, extra);
    log.println("starting " + name + ": " + String.join(" ", cmd));
    return Peer.withAdmin(name, port, cmd, plan.logDir());
  }

  private Peer startNginx(String name, Path run, int port, boolean sendfile) throws IOException {
    log.println("starting " + name + " on port " + port + " (" + run.resolve("nginx.conf") + ")");
    return Peer.nginx(name, plan.nginx(), plan.nginxTemplate(), run, site, port, plan.workers(), sendfile, plan.logDir());
  }

  private void check(Peer p) throws IOException, InterruptedException {
    PeerCheck.verify(p.name(), "127.0.0.1", p.port(), site, plan.sitePaths());
    log.println(p.name() + " serves the files' exact bytes");
  }

  /**
   * Unmeasured load on ours along every path the JIT will compile (each file with each kind of
   * connection), each until its server CPU per request settles ({@link WarmUpRule}); then a little on nginx.
   */
  private String warm(Peer ours, Peer nginx) throws IOException, InterruptedException {
    if (plan.warmup().isZero()) {
      return "none";
    }
    List<String> record = new ArrayList<>();
    int runs = plan.paths().size() * plan.closeKinds().size();
    WarmUpRule rule = new WarmUpRule(plan.warmup().dividedBy(runs), plan.warmupMax().dividedBy(runs));
    log.println("warming " + ours.name() + ": each of " + runs + " paths for " + rule.least().toMillis() / 1000.0
        + "-" + rule.most().toMillis() / 1000.0 + " s, until its server CPU per request settles");
    for (boolean close : plan.closeKinds()) {
      for (String path : plan.paths()) {
        List<Double> steps = new ArrayList<>();
        while (!rule.done(steps)) {
          CpuTime before = ours.cpu();
          Wrk.Run run = plan.wrk().run(url(ours, path), close, WarmUpRule.STEP);
          double requests = Math.max(1, run.result().requests());
          steps.add(ours.cpu().minus(before).seconds() * 1e6 / requests);
        }
        String line = path + " " + StaticPlan.kind(close) + ": "
            + String.join(" ", steps.stream().map(v -> String.format(Locale.ROOT, "%.0f", v)).toList())
            + (rule.settled(steps) ? "" : " (not settled within the limit)");
        record.add(line);
        log.println("  warm  " + line);
      }
      plan.wrk().run(url(nginx, plan.paths().get(0)), close, Duration.ofSeconds(1));
    }
    if (plan.bigRounds() > 0) {
      for (int i = 0; i < 3; i++) {
        Download.fetch("127.0.0.1", ours.port(), plan.bigPath());
      }
    }
    return String.join("; ", record);
  }

  private String url(Peer p, String path) {
    return "http://" + addresses.next() + ":" + p.port() + "/" + path;
  }

  private record Case(String path, boolean close) {
    String label() {
      return path + " " + StaticPlan.kind(close);
    }
  }

  private Table files(Peer ours, Peer nginx) throws IOException, InterruptedException {
    List<Case> cases = new ArrayList<>();
    for (boolean close : plan.closeKinds()) {
      plan.paths().forEach(p -> cases.add(new Case(p, close)));
    }
    Map<Case, Map<String, List<Round>>> rounds = new LinkedHashMap<>();
    cases.forEach(c -> rounds.put(c, Map.of(OURS, new ArrayList<>(), NGINX, new ArrayList<>())));
    for (int round = 0; round < plan.rounds(); round++) {
      List<Case> order = new ArrayList<>(cases);
      List<Peer> servers = new ArrayList<>(List.of(ours, nginx));
      if (round % 2 == 1) {
        Collections.reverse(order);
        Collections.reverse(servers);
      }
      for (Case c : order) {
        for (Peer p : servers) {
          Round r = measure(p, c);
          rounds.get(c).get(p.name()).add(r);
          log.printf("  round %d  %-22s %-14s %9.0f req/s  server %6.1f µs/req  wrk %6.1f µs/req%s%s%n", round + 1,
              c.label(), p.name(), r.value("requestsPerSecond"), r.value("serverCpuUsPerRequest"),
              r.value("clientCpuUsPerRequest"), r.clientBound() ? "  client-bound" : "",
              r.errors() > 0 ? "  " + r.errors() + " errors" : "");
        }
      }
    }
    List<Row> rows = new ArrayList<>();
    for (Case c : cases) {
      rows.add(new Row(c.label(), List.of(new Cell(OURS, rounds.get(c).get(OURS)),
          new Cell(NGINX, rounds.get(c).get(NGINX)))));
    }
    return new Table("files", "Static files, wrk -t" + plan.wrk().threads() + " -c" + plan.wrk().connections() + " -d"
        + Math.max(1, plan.duration().toSeconds()) + "s", FILE_METRICS, List.of(OURS, NGINX), rows, new Ratio(OURS, NGINX));
  }

  private Round measure(Peer p, Case c) throws IOException, InterruptedException {
    CpuTime before = p.cpu();
    Wrk.Run run = plan.wrk().run(url(p, c.path()), c.close(), plan.duration());
    CpuTime server = p.cpu().minus(before);
    return round(run, server, plan.wrk().threads(), cpus);
  }

  /** One wrk run as a round of the files table: rates, CPU per request of both sides, latency, the client-bound flag. */
  static Round round(Wrk.Run run, CpuTime server, int clientThreads, int cpus) {
    WrkResult w = run.result();
    Map<String, Double> v = new LinkedHashMap<>();
    v.put("requestsPerSecond", w.requestsPerSecond());
    if (w.requests() > 0) {
      double per = 1e6 / w.requests();
      v.put("serverCpuUsPerRequest", server.seconds() * per);
      v.put("serverUserUsPerRequest", server.userSeconds() * per);
      v.put("serverSystemUsPerRequest", server.systemSeconds() * per);
      v.put("clientCpuUsPerRequest", run.clientCpu().seconds() * per);
      v.put("latencyAvgMs", w.latencyAvgUs() / 1000);
      v.put("latencyP99Ms", w.latencyP99Us() / 1000);
    }
    boolean clientBound = ClientBound.judge(run.clientCpu().seconds(), server.seconds(), run.wallSeconds(),
        clientThreads, cpus);
    return new Round(v, w.errors(), clientBound);
  }

  /** Server CPU per GB of the big file: both servers with sendfile and copying, variants alternating. */
  private Table bigFile(Peer ours, Peer nginx, Path scratch) throws IOException, InterruptedException {
    try (Peer copying = startOurs(OURS + " --no-sendfile", plan.port() + 2, List.of("--no-sendfile"));
        Peer nginxOff = startNginx(NGINX + " sendfile off", scratch.resolve("nginx-copying"), plan.nginxPort() + 1, false)) {
      check(copying);
      check(nginxOff);
      // A fresh JVM: warm its copying path as much as the sendfile one was, or JIT time inflates it.
      for (int i = 0; i < 5; i++) {
        Download.fetch("127.0.0.1", copying.port(), plan.bigPath());
      }
      Download.fetch("127.0.0.1", nginxOff.port(), plan.bigPath());
      Download.fetch("127.0.0.1", nginx.port(), plan.bigPath());
      List<Peer> variants = List.of(ours, nginx, copying, nginxOff);
      Map<Peer, List<Round>> rounds = new LinkedHashMap<>();
      variants.forEach(p -> rounds.put(p, new ArrayList<>()));
      for (int round = 0; round < plan.bigRounds(); round++) {
        List<Peer> order = new ArrayList<>(variants);
        if (round % 2 == 1) {
          Collections.reverse(order);
        }
        for (Peer p : order) {
          Round r = cpuPerGb(p);
          rounds.get(p).add(r);
          log.printf("  round %d  %s %-28s %7.3f CPU-s/GB%n", round + 1, plan.bigPath(), p.name(),
              r.value("cpuSecondsPerGb"));
        }
      }
      List<Row> rows = List.of(
          new Row(OURS, List.of(new Cell("sendfile", rounds.get(ours)), new Cell("copying", rounds.get(copying)))),
          new Row(NGINX, List.of(new Cell("sendfile", rounds.get(nginx)), new Cell("copying", rounds.get(nginxOff)))));
      return new Table("bigfile", plan.bigPath() + ", " + plan.bigFetches() + " downloads per measurement",
          BIG_METRICS, List.of("sendfile", "copying"), rows, new Ratio("sendfile", "copying"));
    }
  }

  private Round cpuPerGb(Peer p) throws IOException {
    long expected = Files.size(site.resolve(plan.bigPath()));
    long bytes = 0;
    long errors = 0;
    CpuTime before = p.cpu();
    for (int i = 0; i < plan.bigFetches(); i++) {
      long n = Download.fetch("127.0.0.1", p.port(), plan.bigPath());
      bytes += n;
      if (n != expected) {
        errors++;
      }
    }
    CpuTime used = p.cpu().minus(before);
    double gb = bytes / GIB;
    Map<String, Double> v = new LinkedHashMap<>();
    if (gb > 0) {
      v.put("cpuSecondsPerGb", used.seconds() / gb);
      v.put("userSecondsPerGb", used.userSeconds() / gb);
      v.put("systemSecondsPerGb", used.systemSeconds() / gb);
    }
    return new Round(v, errors, false);
  }

  private static void delete(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> all = Files.walk(dir)) {
      for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
