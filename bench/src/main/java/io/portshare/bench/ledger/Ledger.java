package io.portshare.bench.ledger;

import static io.portshare.bench.ledger.LedgerTables.ALLOC;
import static io.portshare.bench.ledger.LedgerTables.BUSIEST;
import static io.portshare.bench.ledger.LedgerTables.CONNECTIONS;
import static io.portshare.bench.ledger.LedgerTables.GC;
import static io.portshare.bench.ledger.LedgerTables.RSS;
import static io.portshare.bench.ledger.LedgerTables.SYSCALLS;

import io.portshare.bench.results.Round;
import io.portshare.bench.results.Table;
import io.portshare.bench.staticfiles.Loopback;
import io.portshare.bench.staticfiles.WarmUpRule;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What one short connection costs each server, one worker each side. Timed rounds (server CPU per
 * operation, user and system apart, rows alternated in order every other round), then untimed
 * passes per server: system calls by name under strace, bytes allocated and GC time (JVMs), and
 * resident memory per held idle connection. A column a server cannot answer (a file server and the
 * dynamic route) is left out of its row; one it answers otherwise than expected ({@link AnswerCheck})
 * is not measured; a round with an answer past 3xx has no figure. Such cells count as errors.
 */
final class Ledger {

  /** What the run does: its columns, rounds and passes. */
  record Plan(List<Workload> workloads, int rounds, Duration duration, Duration warmup, WarmUpRule serverWarmup,
      Duration syscallPass, Duration allocPass, int held, int heldAddresses) {}

  private final Plan plan;
  private final Load load;
  private final Path out;
  private final PrintStream log;
  private final Loopback destinations = new Loopback(10);
  /** Raw figures of every timed pass, one line each. */
  private final List<String> raw = new ArrayList<>();
  private final List<String> warmups = new ArrayList<>();
  private final Map<String, Map<String, List<Round>>> rounds = new LinkedHashMap<>();
  private final Map<String, Map<String, Long>> syscalls = new LinkedHashMap<>();
  private final Map<String, Map<String, Double>> perConnection = new LinkedHashMap<>();
  private final Map<String, double[]> gc = new LinkedHashMap<>(); // seconds, connections
  /** Cells whose answer check failed, by server and column: why. */
  private final Map<String, Map<String, String>> failed = new LinkedHashMap<>();
  /** Cells left out because the server cannot answer the column: server, then its columns. */
  private final Map<String, List<String>> notApplicable = new LinkedHashMap<>();
  private final Path site;

  Ledger(Plan plan, Load load, Path out, Path site, PrintStream log) {
    this.plan = plan;
    this.load = load;
    this.out = out;
    this.site = site;
    this.log = log;
    raw.add("# kind column server round operations connections seconds server_user_s server_system_s "
        + "server_us_per_op user_us system_us client_us errors load_average");
  }

  /** Runs every pass over the started servers of one kind (the first is the floor). */
  void measure(List<Contender> servers) throws IOException, InterruptedException {
    if (servers.isEmpty()) {
      return;
    }
    Contender.Kind kind = servers.get(0).kind();
    List<Workload> columns = plan.workloads().stream().filter(w -> w.kind() == kind).toList();
    if (columns.isEmpty()) {
      return;
    }
    Map<String, Workload> probes = new LinkedHashMap<>();
    for (Contender c : servers) {
      for (Workload w : columns) {
        if (!c.serves(w)) {
          notApplicable.computeIfAbsent(c.name(), k -> new ArrayList<>()).add(w.label());
          log.printf("%s has no %s: left out of its row%n", c.name(), w.label());
          continue;
        }
        if (kind == Contender.Kind.HTTP) {
          String problem = AnswerCheck.problem("127.0.0.1", c.port(), w, site);
          if (problem != null) {
            failed.computeIfAbsent(c.name(), k -> new LinkedHashMap<>()).put(w.label(), problem);
            log.printf("%s %s: %s; the cell is not measured%n", c.name(), w.label(), problem);
            continue;
          }
        }
        warm(c, w);
      }
      Workload probe = probe(c, columns);
      if (probe != null) {
        probes.put(c.name(), probe);
      }
    }
    for (int r = 1; r <= plan.rounds(); r++) {
      List<Contender> order = new ArrayList<>(servers);
      List<Workload> cols = new ArrayList<>(columns);
      if (r % 2 == 0) {
        java.util.Collections.reverse(order);
        java.util.Collections.reverse(cols);
      }
      for (Workload w : cols) {
        for (Contender c : order) {
          if (!measured(c, w)) {
            continue;
          }
          boolean probe = w == probes.get(c.name());
          double gc0 = probe && c.jvm() ? c.probe().gcSeconds(c.mainPid()) : 0;
          Pass p = load.run(c, w, destinations.next(), plan.duration(), plan.warmup());
          if (probe && c.jvm()) {
            double[] g = gc.computeIfAbsent(c.name(), k -> new double[2]);
            g[0] += c.probe().gcSeconds(c.mainPid()) - gc0;
            g[1] += p.connections();
          }
          record(kind, w, c, r, p);
        }
      }
    }
    for (Contender c : servers) {
      Workload probe = probes.get(c.name());
      if (probe == null) {
        continue;
      }
      Map<String, Double> figures = perConnection.computeIfAbsent(c.name(), k -> new LinkedHashMap<>());
      if (!plan.syscallPass().isZero()) {
        Map<String, Long> calls = syscalls(c, probe);
        syscalls.put(c.name(), calls);
        figures.put(SYSCALLS, calls.entrySet().stream().filter(e -> !e.getKey().equals(CONNECTIONS))
            .mapToLong(Map.Entry::getValue).sum() / (double) calls.get(CONNECTIONS));
      }
      if (c.jvm() && !plan.allocPass().isZero()) {
        allocations(c, probe, figures);
      }
      double[] g = gc.get(c.name());
      if (g != null && g[1] > 0) {
        figures.put(GC, g[0] * 1e3 / g[1] * 1e6);
      }
      if (plan.held() > 0) {
        figures.put(RSS, residentPerHeld(c));
      }
    }
  }

  /** Whether the server's cell of this column is measured: it answers the column, and answered it as expected. */
  private boolean measured(Contender c, Workload w) {
    return c.serves(w) && !failed.getOrDefault(c.name(), Map.of()).containsKey(w.label());
  }

  /**
   * The column of a server's untimed passes: the first one-per-connection column it is measured on, a file
   * before the dynamic route (so that every row of a run counts the same request where it can), else its first.
   */
  private Workload probe(Contender c, List<Workload> columns) {
    List<Workload> mine = columns.stream().filter(w -> measured(c, w)).toList();
    return mine.stream().filter(w -> w.close() && !w.dynamic()).findFirst()
        .or(() -> mine.stream().filter(Workload::close).findFirst())
        .orElse(mine.isEmpty() ? null : mine.get(0));
  }

  /** Cells left out because their server cannot answer the column, by server. */
  Map<String, List<String>> notApplicable() {
    return notApplicable;
  }

  /** Cells not measured because their server's answer was not the expected one: server, column, why. */
  Map<String, Map<String, String>> failedChecks() {
    return failed;
  }

  /**
   * Unmeasured load until the server's CPU per operation settles ({@link WarmUpRule}): on a busy machine
   * the JIT's compile threads spend tens of CPU-seconds inside the server's counters, so a fixed
   * wall-clock warm-up leaves a JVM cold.
   */
  private void warm(Contender c, Workload w) throws IOException, InterruptedException {
    List<Double> steps = new ArrayList<>();
    while (!plan.serverWarmup().done(steps)) {
      steps.add(load.run(c, w, destinations.next(), WarmUpRule.STEP, Duration.ZERO).serverMicrosPerOp());
    }
    String line = c.name() + " " + w.label() + ": " + String.join(" ",
        steps.stream().map(v -> String.format(Locale.ROOT, "%.1f", v)).toList())
        + (plan.serverWarmup().settled(steps) ? "" : " (not settled within the limit)");
    warmups.add(line);
    log.println("warm " + line);
  }

  /** Each server's warm-up, column by column: server CPU µs per operation of each step. */
  List<String> warmups() {
    return warmups;
  }

  private Map<String, Long> syscalls(Contender c, Workload w) throws IOException, InterruptedException {
    log.printf("counting system calls of %s on %s (%d ms under strace)%n", c.name(), w.label(), plan.syscallPass().toMillis());
    Path file = out.resolve("strace-" + c.name() + ".txt");
    Pass p;
    Map<String, Long> calls;
    try (Syscalls s = Syscalls.attach(c.pids(), file)) {
      p = load.run(c, w, destinations.next(), plan.syscallPass(), Duration.ZERO);
      calls = s.stop();
    }
    Files.writeString(file, "# " + p.connections() + " connections, " + p.operations() + " operations ("
        + w.label() + ")\n" + Files.readString(file), StandardCharsets.UTF_8);
    Map<String, Long> withCount = new LinkedHashMap<>(calls);
    withCount.put(CONNECTIONS, Math.max(1, p.connections()));
    return withCount;
  }

  private void allocations(Contender c, Workload w, Map<String, Double> figures) throws IOException, InterruptedException {
    log.printf("counting allocations of %s on %s (%d ms)%n", c.name(), w.label(), plan.allocPass().toMillis());
    Map<String, Long> before = c.probe().allocatedByThread(c.mainPid());
    Pass p = load.run(c, w, destinations.next(), plan.allocPass(), Duration.ZERO);
    Map<String, Long> after = c.probe().allocatedByThread(c.mainPid());
    long total = 0;
    long busiest = 0;
    for (Map.Entry<String, Long> e : after.entrySet()) {
      long d = e.getValue() - before.getOrDefault(e.getKey(), 0L);
      total += d;
      busiest = Math.max(busiest, d);
    }
    long conns = Math.max(1, p.connections());
    figures.put(ALLOC, total / (double) conns);
    figures.put(BUSIEST, busiest / (double) conns);
  }

  private double residentPerHeld(Contender c) throws IOException, InterruptedException {
    log.printf("holding %d idle connections to %s%n", plan.held(), c.name());
    settle(c);
    long before = c.residentBytes();
    int files = c.openFiles();
    try (HeldConnections held = HeldConnections.open(plan.held(), c.port(), 2, plan.heldAddresses())) {
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (c.openFiles() < files + held.size() && System.nanoTime() < deadline) {
        Thread.sleep(100);
      }
      int accepted = c.openFiles() - files;
      if (accepted < held.size() * 0.99) {
        throw new IOException(c.name() + " accepted " + accepted + " of " + held.size() + " held connections");
      }
      settle(c);
      return (c.residentBytes() - before) / 1024.0 / held.size();
    }
  }

  /** A JVM collects its garbage (twice: what the first frees may let the second free more); then a moment's rest. */
  private void settle(Contender c) throws IOException, InterruptedException {
    if (c.jvm()) {
      c.probe().gc(c.mainPid());
      c.probe().gc(c.mainPid());
    }
    Thread.sleep(500);
  }

  private void record(Contender.Kind kind, Workload w, Contender c, int round, Pass p) {
    rounds.computeIfAbsent(c.name(), k -> new LinkedHashMap<>()).computeIfAbsent(w.label(), k -> new ArrayList<>())
        .add(LedgerTables.round(p));
    String load = io.portshare.bench.results.Machine.loadAverage().replace(' ', '/');
    raw.add(String.format(Locale.ROOT, "%s %s %s %d %d %d %.3f %.3f %.3f %.2f %.2f %.2f %.2f %d %s",
        kind.name().toLowerCase(Locale.ROOT), w.label().replace(' ', '_'), c.name(), round, p.operations(),
        p.connections(), p.seconds(), p.server().userSeconds(), p.server().systemSeconds(), p.serverMicrosPerOp(),
        p.userMicrosPerOp(), p.systemMicrosPerOp(), p.clientMicrosPerOp(), p.errors(), load));
    log.printf("round %d %-14s %-16s %7.1f µs/op (user %.1f, system %.1f) %8.0f/s%s%n", round, w.label(), c.name(),
        p.serverMicrosPerOp(), p.userMicrosPerOp(), p.systemMicrosPerOp(), p.perSecond(),
        (p.errors() > 0 ? " ERRORS " + p.errors() : "")
            + (p.badAnswers() > 0 ? " (" + p.badAnswers() + " answers past 3xx: no figure)" : ""));
  }

  List<String> raw() {
    return raw;
  }

  /** The tables of one kind, made from what was measured so far ({@link LedgerTables}). */
  List<Table> tables(Contender.Kind kind, List<String> names, String floor) {
    return new LedgerTables(plan.workloads(), rounds, syscalls, perConnection, failed, notApplicable)
        .tables(kind, names, floor);
  }
}
