package io.portshare.bench.latency;

import io.portshare.bench.results.TextGrid;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The latency run's {@code table.txt}: a table per column, one row per server and rate, from the
 * run's cells or, for {@code report DIR}, from its raw {@code latency.csv}, which holds every figure
 * the table shows.
 */
public final class LatencyTable {

  /** One row as the table shows it. {@code gc} is null where no server of the run had a GC log. */
  record Line(String workload, String name, boolean closed, String asked, double reached, long[] micros, String[] gc,
      String errors, String client, String server, String flag) {

    static Line of(LatencyCell c, boolean gcLogged) {
      Percentiles p = c.latency();
      String flag = c.closedLoop() ? "closed loop" + (c.verdict().clientBusy() ? ", client busy" : "")
          : c.verdict().flagged() ? LatencyReport.FLAGGED + ": " + c.verdict().reasons() : "-";
      return new Line(c.workload(), c.server() + " " + c.shareLabel(), c.closedLoop(),
          c.closedLoop() ? "-" : Long.toString(c.asked()), c.measurement().perSecond(),
          new long[] {p.p50(), p.p90(), p.p99(), p.p999(), p.p9999(), p.max()},
          gcLogged ? LatencyReport.gcFigures(c.gc()) : null, LatencyReport.errors(c),
          LatencyReport.f2(c.clientCores()), LatencyReport.f2(c.serverCores()), flag);
    }
  }

  private static final String[] PERCENTILES = {"p50_us", "p90_us", "p99_us", "p99.9_us", "p99.99_us", "max_us"};

  private final Map<String, String> meta;
  private final List<Line> lines;
  private final boolean gcLogged;

  LatencyTable(Map<String, String> meta, List<Line> lines, boolean gcLogged) {
    this.meta = meta;
    this.lines = lines;
    this.gcLogged = gcLogged;
  }

  /**
   * The table of a run's {@code latency.csv}. The CSV writes a closed loop's flag empty and a comma
   * as ';' in its errors and flags; a closed loop's "client busy" is its client's cores at
   * {@link Verdict#BUSY_SHARE} or more, as the run judged it with the generator on one core.
   */
  public static LatencyTable fromCsv(String csv) {
    Map<String, String> meta = new LinkedHashMap<>();
    List<Line> lines = new ArrayList<>();
    List<String> columns = null;
    for (String l : csv.split("\n")) {
      if (l.startsWith("# ")) {
        int colon = l.indexOf(": ");
        meta.put(l.substring(2, colon), l.substring(colon + 2));
      } else if (columns == null) {
        columns = List.of(l.split(","));
      } else if (!l.isEmpty()) {
        lines.add(parse(columns, l.split(",", -1)));
      }
    }
    if (columns == null) {
      throw new IllegalArgumentException("a latency.csv has a line of column names");
    }
    return new LatencyTable(meta, lines, columns.contains("gc_pauses"));
  }

  private static Line parse(List<String> columns, String[] f) {
    if (f.length != columns.size()) {
      throw new IllegalArgumentException("a latency.csv line of " + f.length + " fields under " + columns.size()
          + " columns: " + String.join(",", f));
    }
    Map<String, String> v = new LinkedHashMap<>();
    for (int i = 0; i < f.length; i++) {
      v.put(columns.get(i), f[i]);
    }
    boolean closed = v.get("share").equals("closed");
    long[] micros = Arrays.stream(PERCENTILES).mapToLong(k -> Long.parseLong(v.get(k))).toArray();
    String[] gc = columns.contains("gc_pauses")
        ? new String[] {v.get("gc_pauses"), v.get("gc_pause_total_ms"), v.get("gc_pause_max_ms")} : null;
    String reasons = v.get("flag").replace(';', ',');
    String flag = closed ? "closed loop" + (Double.parseDouble(v.get("client_cpu_cores")) >= Verdict.BUSY_SHARE
        ? ", client busy" : "") : reasons.isEmpty() ? "-" : LatencyReport.FLAGGED + ": " + reasons;
    return new Line(v.get("column"), v.get("server") + " " + v.get("share"), closed,
        closed ? "-" : v.get("asked_per_s"), Double.parseDouble(v.get("reached_per_s")), micros, gc,
        v.get("errors").replace(';', ','), v.get("client_cpu_cores"), v.get("server_cpu_cores"), flag);
  }

  public String text() {
    StringBuilder b = new StringBuilder("portshare latency: open loop from the due time\n\n");
    meta.forEach((k, v) -> b.append(k).append(": ").append(v).append('\n'));
    Set<String> workloads = new LinkedHashSet<>();
    lines.forEach(l -> workloads.add(l.workload()));
    for (String w : workloads) {
      b.append("\n").append(w).append(" (latency in ms; rate per second; CPU in cores)\n");
      // One cell names the row (server and share), none is empty: the docs read cells of this table by row
      // and column (io.portshare.kit.RawTable), cells apart by two spaces or more.
      TextGrid grid = new TextGrid(true);
      grid.add(row(new String[] {"server at share", "asked", "reached", "p50", "p90", "p99", "p99.9", "p99.99", "max"},
          new String[] {"GC pauses", "GC total", "GC max"}, new String[] {"errors", "client CPU", "server CPU", "flag"}));
      double floor = 0;
      for (Line l : lines) {
        if (!l.workload().equals(w)) {
          continue;
        }
        floor = l.closed() ? Math.max(floor, l.reached()) : floor;
        long[] m = l.micros();
        grid.add(row(new String[] {l.name(), l.asked(), f1(l.reached()), LatencyReport.ms(m[0]), LatencyReport.ms(m[1]),
            LatencyReport.ms(m[2]), LatencyReport.ms(m[3]), LatencyReport.ms(m[4]), LatencyReport.ms(m[5])}, l.gc(),
            new String[] {l.errors(), l.client(), l.server(), l.flag()}));
      }
      b.append(grid.render());
      if (gcLogged) {
        b.append("GC: the server's stop-the-world pauses that ended in the window, how many, their total and the "
            + "longest in ms (concurrent GC work is not a pause); - for a server without a GC log\n");
      }
      b.append("generator floor (the best closed-loop rate it reached, against any server): ")
          .append(f1(floor)).append("/s\n");
    }
    return b.toString();
  }

  private List<String> row(String[] head, String[] gc, String[] tail) {
    List<String> out = new ArrayList<>(List.of(head));
    if (gcLogged) {
      out.addAll(List.of(gc));
    }
    out.addAll(List.of(tail));
    return out;
  }

  private static String f1(double v) {
    return String.format(Locale.ROOT, "%.1f", v);
  }
}
