package io.portshare.bench.ledger;

import io.portshare.bench.load.CLoadClient;
import io.portshare.bench.results.Machine;
import io.portshare.bench.results.Results;
import io.portshare.bench.results.ResultsWriter;
import io.portshare.bench.results.RunCommand;
import io.portshare.bench.results.Table;
import io.portshare.bench.staticfiles.WarmUpRule;
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
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code portshare-bench ledger}: what one connection costs each server at the floor, one worker each
 * side, in one run: the C echo server, plain Netty, rpc-server on both engines and a stock Vert.x NetServer
 * for RPC; nginx, plain Netty, static-server on both engines, the same vertx-web Router verticle on the
 * portshare runtime and on stock Vert.x (its static route portshare-web's StaticFiles, or vertx-web's
 * StaticHandler in the {@code -statichandler} rows), and a stock Vert.x HttpServer for static files; and the
 * Router's dynamic route ({@code GET /hello}) against nginx's {@code return 200}.
 */
@Command(name = "ledger", mixinStandardHelpOptions = true,
    description = "What one connection costs each server, one worker each side: server CPU µs per connection "
        + "(user and system), system calls by name, bytes allocated, GC time and memory per held idle connection, "
        + "for the floor (C echo, nginx), plain Netty, the portshare services and stock Vert.x. Writes table.txt, "
        + "rounds.txt, results.json, results.csv and report.html under --out/<timestamp>-ledger/.")
public final class LedgerCommand implements Callable<Integer> {

  @Spec
  CommandSpec spec;

  @Option(names = "--rows", split = ",",
      description = "servers to measure, in table order (default: c-echo, netty-echo, rpc-server, rpc-server-vertx, "
          + "vertx-echo, nginx, netty-http, static-server, static-server-vertx, router-portshare, router-stock, "
          + "router-portshare-statichandler, router-stock-statichandler, vertx-http; "
          + "-vertx: the service with --engine vertx; router-*: one vertx-web Router verticle on the portshare runtime and "
          + "on Vert.x's own launcher, its static files through portshare-web's StaticFiles, or vertx-web's StaticHandler "
          + "in the -statichandler rows); the first of each kind is the floor the others are compared with")
  List<String> rows;

  @Option(names = "--variant",
      description = "an extra row LABEL=BASE [jar=PATH] [java=PATH|N] [arg=SERVICE-ARG...] [JVM flags], e.g. 'rpc-server-parallel=rpc-server "
          + "-XX:+UseParallelGC' or 'rpc-server-25=rpc-server java=25' (the installed JDK of release 25), for an A/B "
          + "in the same run (repeatable)")
  List<String> variants = new ArrayList<>();

  @Option(names = "--columns", split = ",",
      description = "workloads (default: 64B|1x, 1024B|1x, 64B|1024x, 1024B|1024x, 1k.bin close, index.html close, "
          + "1k.bin keep-alive, hello close, hello keep-alive); hello is the dynamic route (GET /hello, a short text): "
          + "the Router rows and nginx (return 200) answer it, the other rows' cells are left out")
  List<String> columns;

  @Option(names = "--rounds", defaultValue = "3", description = "timed rounds, the order reversed every other one (default: ${DEFAULT-VALUE})")
  int rounds;

  @Mixin
  Window window = new Window("4s", "1s", "6s", 32);

  @Option(names = "--server-warmup-max", defaultValue = "40s",
      description = "the longest warm-up per server and column: past --server-warmup it goes on until the server's CPU "
          + "per operation settles (default: ${DEFAULT-VALUE})")
  Duration serverWarmupMax;

  @Option(names = "--syscall-pass", defaultValue = "3s",
      description = "load under strace -c per server, to count system calls per connection; 0 leaves it out (default: ${DEFAULT-VALUE})")
  Duration syscallPass;

  @Option(names = "--alloc-pass", defaultValue = "3s",
      description = "load per JVM server between two readings of its threads' allocated bytes; 0 leaves it out (default: ${DEFAULT-VALUE})")
  Duration allocPass;

  @Option(names = "--held", defaultValue = "10000",
      description = "idle connections held to each server for its memory per connection; 0 leaves it out (default: ${DEFAULT-VALUE})")
  int held;

  @Option(names = "--pinning", defaultValue = "shared",
      description = "apart: the server on CPU 1, the client on CPU 0 (a dedicated server's core); shared: nothing pinned "
          + "(a crowded node) (default: ${DEFAULT-VALUE})")
  String pinning;

  @Option(names = "--port", defaultValue = "29100",
      description = "first server's port; each row gets the next ten (admin port PORT+1) (default: ${DEFAULT-VALUE})")
  int port;

  @Option(names = "--classpath", description = "classpath of the plain Netty and stock Vert.x rows (default: this JVM's, the bench jar)")
  String classpath;

  @Mixin
  ServersAndReports servers = new ServersAndReports();

  @Mixin
  CLoadClient cLoad = new CLoadClient();

  @Override
  public Integer call() throws IOException, InterruptedException {
    List<Contenders.Spec> specs = specs();
    List<Workload> workloads = (columns == null ? allWorkloads() : columns.stream().map(Workload::named).toList());
    check(rounds >= 1, "--rounds", rounds, "at least 1");
    Duration duration = window.duration();
    Duration warmup = window.warmup();
    Duration serverWarmup = window.serverWarmup();
    int connections = window.connections();
    check(held >= 0 && held <= 15_000, "--held", held, "0..15000 (each held connection is a file in this process and the server's)");
    Pinning pin = Pinning.parse(pinning);
    Path out = servers.reports().thisRun("-ledger");
    Files.createDirectories(out);
    Path scratch = Files.createTempDirectory("portshare-ledger");
    Files.setPosixFilePermissions(scratch, PosixFilePermissions.fromString("rwxr-xr-x")); // nginx's worker reads the site
    Path site = scratch.resolve("site");
    boolean http = specs.stream().anyMatch(s -> s.kind() == Contender.Kind.HTTP)
        && workloads.stream().anyMatch(w -> w.kind() == Contender.Kind.HTTP);
    boolean nginxRow = http && specs.stream().anyMatch(s -> s.base().equals(Contenders.HTTP_FLOOR));
    if (http) {
      Contenders.makeSite(site, workloads.stream().filter(w -> w.kind() == Contender.Kind.HTTP && !w.dynamic())
          .map(Workload::path).distinct().toList(), servers.jars().staticServer());
    }
    String java = ProcessHandle.current().info().command().orElse("java");
    Contenders.Sources sources = servers.sources(java, classpath != null ? classpath : System.getProperty("java.class.path"),
        nginxRow ? servers.tools().nginx() : null, nginxRow ? servers.tools().nginxTemplate() : null);
    Contenders starter = new Contenders(sources, site, scratch, out.resolve("logs"), pin);
    Load load = new Load(cLoad.path(), http ? servers.tools().wrk() : null, connections);
    Ledger.Plan plan = new Ledger.Plan(workloads, rounds, duration, warmup,
        new WarmUpRule(serverWarmup, serverWarmupMax.compareTo(serverWarmup) < 0 ? serverWarmup : serverWarmupMax), syscallPass, allocPass, held, 8);
    Ledger ledger = new Ledger(plan, load, out, site, System.out);

    Map<String, String> meta = new LinkedHashMap<>();
    meta.put("command", RunCommand.of(spec));
    meta.putAll(Machine.describe());
    meta.put("load average at start", Machine.loadAverage());
    meta.put("servers", "one worker each: C echo -t 1, nginx worker_processes 1, JVM rows one event loop "
        + "(the portshare rows --instances 1 --mode reuseport, stock Vert.x rows an event loop pool of 1); JVM flags: " + servers.serverJvmOptions());
    meta.put("pinning", pin.describe());
    meta.put("load", "one client thread: rpcload -t 1 (RPC), wrk -t1 (HTTP); "
        + connections + " connections, closed loop; each pass to its own 127.0.0.x");
    meta.put("timed", rounds + " rounds of " + duration.toMillis() + " ms per server and column (after "
        + warmup.toMillis() + " ms unmeasured), rows and columns reversed every other round; each server first "
        + "warmed per column in steps of " + WarmUpRule.STEP.toMillis() + " ms for " + serverWarmup.toMillis() + "-"
        + serverWarmupMax.toMillis() + " ms, until its server CPU per operation settled (steps below)");
    meta.put("CPU", "server utime and stime from /proc/PID/stat (the server's processes and children) over each "
        + "measured window, per operation; on loopback part of each side's kernel work is charged to the other");
    meta.put("answers", "before its warm-up, each server's answer to each HTTP column is checked once: 200 and "
        + "exactly the file's bytes, or for hello \"hello\\n\" as text/plain; charset=utf-8; a cell that fails is not "
        + "measured, a round with any answer past 3xx has no figure, and either is marked * as errors");
    meta.put("per connection", "untimed passes on the first one-per-connection column: system calls from strace -c -f "
        + "on every server thread (" + syscallPass.toMillis() + " ms), divided by the connections the client completed; "
        + "bytes allocated by all threads (jcmd Thread.print -e, " + allocPass.toMillis() + " ms) per connection; "
        + "GC time (jstat GCT) over the timed rounds of that column; RSS growth (VmRSS, after GC) over " + held
        + " idle connections held open, per connection");
    for (Contenders.Spec s : specs) {
      if (s.jvm()) {
        // As a reader would type it: the JVM by name, the scratch site as SITE, paths from the checkout.
        meta.put("row " + s.name(), String.join(" ", starter.command(s, port)).replace(java, "java")
            .replace(Contenders.java(s, java), s.java() == null ? "java" : "java(" + s.java() + ")")
            .replace(site.toString(), "SITE").replace(Path.of("").toAbsolutePath() + "/", ""));
      }
    }
    // After the header's facts: pinned, this process sees one CPU, and the header says what the machine has.
    pin.pinThisProcess();
    List<Table> tables = new ArrayList<>();
    try {
      for (Contender.Kind kind : Contender.Kind.values()) {
        List<Contenders.Spec> mine = specs.stream().filter(s -> s.kind() == kind).toList();
        if (mine.isEmpty() || workloads.stream().noneMatch(w -> w.kind() == kind)) {
          continue;
        }
        List<Contender> started = new ArrayList<>();
        try {
          for (Contenders.Spec s : mine) {
            int p = port + 10 * specs.indexOf(s);
            System.out.printf("starting %s on port %d%n", s.name(), p);
            started.add(starter.start(s, p));
          }
          ledger.measure(started);
        } finally {
          started.forEach(Contender::close);
        }
        List<String> names = mine.stream().map(Contenders.Spec::name).toList();
        String floor = names.get(0);
        tables.addAll(ledger.tables(kind, names, floor));
      }
    } finally {
      Files.writeString(out.resolve("rounds.txt"), String.join("\n", ledger.raw()) + "\n", StandardCharsets.UTF_8);
    }
    meta.put("load average at end", Machine.loadAverage());
    ledger.notApplicable().forEach((row, cols) -> meta.put("not applicable " + row, String.join(", ", cols)
        + " (no such route: left out, not measured)"));
    ledger.failedChecks().forEach((row, cols) -> cols.forEach((col, why) -> meta.put("failed check " + row + " " + col,
        why + " (not measured)")));
    for (int i = 0; i < ledger.warmups().size(); i++) {
      meta.put("warm-up " + (i + 1), ledger.warmups().get(i));
    }
    Results results = new Results(LedgerReport.TITLE, meta, tables);
    ResultsWriter.writeAll(results, LedgerReport.text(results), out);
    System.out.print(Files.readString(out.resolve("table.txt")));
    System.out.println("reports: " + out);
    return results.anyErrors() ? ExitCodes.SOFTWARE : ExitCodes.OK;
  }

  private List<Contenders.Spec> specs() {
    List<String> names = rows != null ? rows : allRows();
    List<Contenders.Spec> out = new ArrayList<>();
    for (String n : names) {
      if (!Contenders.RPC.contains(n) && !Contenders.HTTP.contains(n)) {
        throw new IllegalArgumentException("invalid value for --rows: " + n + "; expected some of " + allRows());
      }
      out.add(new Contenders.Spec(n, n));
    }
    for (String v : variants) {
      Contenders.Spec s = Contenders.Spec.variant(v);
      if (out.stream().anyMatch(o -> o.name().equals(s.name()))) {
        throw new IllegalArgumentException("invalid value for --variant: " + v + "; the row " + s.name() + " is already there");
      }
      out.add(s);
    }
    return out;
  }

  private static List<String> allRows() {
    List<String> all = new ArrayList<>(Contenders.RPC);
    all.addAll(Contenders.HTTP);
    return all;
  }

  private static List<Workload> allWorkloads() {
    List<Workload> all = new ArrayList<>(Workload.RPC);
    all.addAll(Workload.HTTP);
    return all;
  }

  private static void check(boolean ok, String option, Object value, String expected) {
    if (!ok) {
      throw new IllegalArgumentException("invalid value for " + option + ": " + value + "; expected " + expected);
    }
  }
}
