package io.portshare.bench.ledger;

import io.portshare.bench.results.Cell;
import io.portshare.bench.results.Metric;
import io.portshare.bench.results.Round;
import io.portshare.bench.results.Row;
import io.portshare.bench.results.Table;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The ledger's tables, made from what its passes measured ({@link Ledger}), and the metrics and column labels
 * they are written in: per kind, server CPU per operation (user and system apart), its ratio to the floor's
 * round by round, the per-connection figures of the untimed passes, and system calls by name.
 */
final class LedgerTables {

  static final Metric CPU = new Metric("server_us", "server CPU µs per operation", 1);
  static final Metric USER = new Metric("user_us", "of which user", 1);
  static final Metric SYSTEM = new Metric("system_us", "of which system", 1);
  static final Metric RATE = new Metric("k_per_s", "10^3 operations/s", 1);
  static final Metric CLIENT = new Metric("client_us", "client CPU µs per operation", 1);
  static final Metric RATIO = new Metric("ratio", "server CPU per operation over the floor's, round by round", 2);
  static final Metric CALLS = new Metric("calls", "system calls per connection (strace -c, untimed pass)", 2);
  static final Metric FIGURE = new Metric("value", "per connection", 1);

  static final String SYSCALLS = "syscalls";
  static final String RSS = "RSS KiB/held conn";
  static final String ALLOC = "alloc B/conn";
  static final String BUSIEST = "of it busiest thread B/conn";
  static final String GC = "GC ms/10^6 conn";

  /** The key under which a syscall count map carries the pass's connections. */
  static final String CONNECTIONS = " connections";

  /**
   * A timed pass as a round of its cell: its figures, or none when any answer had a status past 3xx (a 404's or a
   * 500's cost is not the column's); its errors either way, so the cell is marked and the run fails.
   */
  static Round round(Pass p) {
    if (p.badAnswers() > 0) {
      return new Round(Map.of(), Math.max(p.errors(), p.badAnswers()), false);
    }
    Map<String, Double> v = new LinkedHashMap<>();
    v.put(CPU.key(), p.serverMicrosPerOp());
    v.put(USER.key(), p.userMicrosPerOp());
    v.put(SYSTEM.key(), p.systemMicrosPerOp());
    v.put(RATE.key(), p.perSecond() / 1e3);
    v.put(CLIENT.key(), p.clientMicrosPerOp());
    return new Round(v, p.errors(), false);
  }

  /** A cell whose answer check failed: no figure, one error, so that it is marked and the run fails. */
  static final Round FAILED_CHECK = new Round(Map.of(), 1, false);

  /** The run's columns, of every kind. */
  private final List<Workload> workloads;
  /** Each server's rounds, by column. */
  private final Map<String, Map<String, List<Round>>> rounds;
  /** Each server's system calls by name, with the pass's connections under {@link #CONNECTIONS}. */
  private final Map<String, Map<String, Long>> syscalls;
  /** Each server's per-connection figures, by label. */
  private final Map<String, Map<String, Double>> perConnection;
  /** Cells whose answer check failed, by server and column: why. */
  private final Map<String, Map<String, String>> failed;
  /** Cells left out because the server cannot answer the column: server, then its columns. */
  private final Map<String, List<String>> notApplicable;

  LedgerTables(List<Workload> workloads, Map<String, Map<String, List<Round>>> rounds,
      Map<String, Map<String, Long>> syscalls, Map<String, Map<String, Double>> perConnection,
      Map<String, Map<String, String>> failed, Map<String, List<String>> notApplicable) {
    this.workloads = workloads;
    this.rounds = rounds;
    this.syscalls = syscalls;
    this.perConnection = perConnection;
    this.failed = failed;
    this.notApplicable = notApplicable;
  }

  /** The tables of one kind: CPU per operation, its ratio to the floor, the per-connection figures, system calls by name. */
  List<Table> tables(Contender.Kind kind, List<String> names, String floor) {
    List<String> columns = workloads.stream().filter(w -> w.kind() == kind).map(Workload::label).toList();
    String what = kind == Contender.Kind.RPC ? "RPC echo" : "static files";
    String op = kind == Contender.Kind.RPC ? "transaction (= connection at 1x)" : "request (= connection on close)";
    List<Table> out = new ArrayList<>();
    if (columns.isEmpty() || names.isEmpty()) {
      return out;
    }
    String key = kind.name().toLowerCase(Locale.ROOT);
    List<Row> cpuRows = new ArrayList<>();
    List<Row> ratioRows = new ArrayList<>();
    for (String n : names) {
      Map<String, List<Round>> byColumn = rounds.getOrDefault(n, Map.of());
      List<Cell> cells = new ArrayList<>();
      List<Cell> ratios = new ArrayList<>();
      for (String col : columns) {
        List<Round> mine = byColumn.getOrDefault(col, List.of());
        if (failed.getOrDefault(n, Map.of()).containsKey(col)) {
          cells.add(new Cell(col, List.of(FAILED_CHECK)));
          ratios.add(new Cell(col, List.of(FAILED_CHECK)));
          continue;
        }
        if (notApplicable.getOrDefault(n, List.of()).contains(col)) {
          continue; // no cell: shown as "-", never a figure
        }
        cells.add(new Cell(col, mine));
        List<Round> theirs = rounds.getOrDefault(floor, Map.of()).getOrDefault(col, List.of());
        List<Round> r = new ArrayList<>();
        for (int i = 0; i < Math.min(mine.size(), theirs.size()); i++) {
          r.add(new Round(Map.of(RATIO.key(), mine.get(i).value(CPU.key()) / theirs.get(i).value(CPU.key())),
              mine.get(i).errors(), false));
        }
        ratios.add(new Cell(col, r));
      }
      cpuRows.add(new Row(n, cells));
      if (!n.equals(floor)) {
        ratioRows.add(new Row(n, ratios));
      }
    }
    out.add(new Table(key, what + ", one worker each side, per " + op,
        List.of(CPU, USER, SYSTEM, RATE, CLIENT), columns, cpuRows, null));
    if (rounds.containsKey(floor)) {
      out.add(new Table(key + "-vs-floor", what + ": each row over " + floor, List.of(RATIO), columns, ratioRows, null));
    }
    List<Row> figureRows = new ArrayList<>();
    List<String> figureColumns = List.of(SYSCALLS, ALLOC, BUSIEST, GC, RSS);
    for (String n : names) {
      Map<String, Double> f = perConnection.getOrDefault(n, Map.of());
      List<Cell> cells = new ArrayList<>();
      for (String col : figureColumns) {
        Double v = f.get(col);
        cells.add(new Cell(col, v == null ? List.of() : List.of(new Round(Map.of(FIGURE.key(), v), 0, false))));
      }
      figureRows.add(new Row(n, cells));
    }
    out.add(new Table(key + "-per-connection", what + ", per connection of the first one-per-connection column "
        + "(untimed passes; RSS over held idle connections after GC)", List.of(FIGURE), figureColumns, figureRows, null));
    Set<String> callNames = new LinkedHashSet<>();
    for (String n : names) {
      Map<String, Long> calls = syscalls.get(n);
      if (calls == null) {
        continue;
      }
      long conns = calls.get(CONNECTIONS);
      calls.forEach((name, count) -> {
        if (!name.equals(CONNECTIONS) && count / (double) conns >= 0.05) {
          callNames.add(name);
        }
      });
    }
    if (!callNames.isEmpty()) {
      List<String> callColumns = new ArrayList<>(callNames);
      callColumns.add("all");
      List<Row> callRows = new ArrayList<>();
      for (String n : names) {
        Map<String, Long> calls = syscalls.get(n);
        if (calls == null) {
          continue;
        }
        double conns = calls.get(CONNECTIONS);
        List<Cell> cells = new ArrayList<>();
        for (String col : callColumns) {
          double v = col.equals("all") ? perConnection.get(n).get(SYSCALLS) : calls.getOrDefault(col, 0L) / conns;
          cells.add(new Cell(col, List.of(new Round(Map.of(CALLS.key(), v), 0, false))));
        }
        callRows.add(new Row(n, cells));
      }
      out.add(new Table(key + "-syscalls", what + ", by name", List.of(CALLS), callColumns, callRows, null));
    }
    return out;
  }
}
