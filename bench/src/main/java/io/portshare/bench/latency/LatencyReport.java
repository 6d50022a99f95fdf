package io.portshare.bench.latency;

import io.portshare.bench.results.TextGrid;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The latency run's reports from its cells: the raw CSV (every figure, headed by the run's command,
 * commit, machine and load) and the text table; deploy/bench-charts.sh draws each column's
 * percentiles from the CSV. When JVM servers ran with a GC log ({@code --jvm}), each table
 * has their GC pauses in the window beside the percentiles: count, total and longest; without, the
 * reports are as they were.
 */
final class LatencyReport {

  static final String FLAGGED = "FLAGGED";

  private final Map<String, String> meta;
  private final List<LatencyCell> cells;

  LatencyReport(Map<String, String> meta, List<LatencyCell> cells) {
    this.meta = meta;
    this.cells = cells;
  }

  String csv() {
    StringBuilder b = new StringBuilder();
    meta.forEach((k, v) -> b.append("# ").append(k).append(": ").append(v).append('\n'));
    boolean gc = gcLogged();
    b.append("column,server,share,asked_per_s,reached_per_s,count,p50_us,p90_us,p99_us,p99.9_us,p99.99_us,max_us,")
        .append(gc ? "gc_pauses,gc_pause_total_ms,gc_pause_max_ms," : "")
        .append("errors,client_cpu_cores,server_cpu_cores,flag\n");
    for (LatencyCell c : cells) {
      Percentiles p = c.latency();
      b.append(String.join(",", c.workload(), c.server(), c.shareLabel(), Long.toString(c.asked()),
          f1(c.measurement().perSecond()), Long.toString(p.count()), Long.toString(p.p50()), Long.toString(p.p90()),
          Long.toString(p.p99()), Long.toString(p.p999()), Long.toString(p.p9999()), Long.toString(p.max())));
      if (gc) {
        b.append(',').append(String.join(",", gcFigures(c.gc())));
      }
      b.append(',').append(String.join(",", errors(c).replace(',', ';'), f2(c.clientCores()), f2(c.serverCores()),
          c.closedLoop() ? "" : c.verdict().reasons().replace(',', ';'))).append('\n');
    }
    return b.toString();
  }

  String text() {
    StringBuilder b = new StringBuilder("portshare latency: open loop from the due time\n\n");
    meta.forEach((k, v) -> b.append(k).append(": ").append(v).append('\n'));
    for (String w : workloads()) {
      b.append("\n").append(w).append(" (latency in ms; rate per second; CPU in cores)\n");
      List<String[]> rows = new ArrayList<>();
      // One cell names the row (server and share), none is empty: the docs read cells of this table by row
      // and column (io.portshare.kit.RawTable), cells apart by two spaces or more.
      boolean gc = gcLogged();
      rows.add(row(gc, new String[] {"server at share", "asked", "reached", "p50", "p90", "p99", "p99.9", "p99.99",
          "max"}, new String[] {"GC pauses", "GC total", "GC max"}, new String[] {"errors", "client CPU", "server CPU",
          "flag"}));
      for (LatencyCell c : cells) {
        if (!c.workload().equals(w)) {
          continue;
        }
        Percentiles p = c.latency();
        String flag = c.closedLoop() ? "closed loop" + (c.verdict().clientBusy() ? ", client busy" : "")
            : c.verdict().flagged() ? FLAGGED + ": " + c.verdict().reasons() : "-";
        rows.add(row(gc, new String[] {c.server() + " " + c.shareLabel(), c.closedLoop() ? "-" : Long.toString(c.asked()),
            f1(c.measurement().perSecond()), ms(p.p50()), ms(p.p90()), ms(p.p99()), ms(p.p999()), ms(p.p9999()),
            ms(p.max())}, gcFigures(c.gc()), new String[] {errors(c), f2(c.clientCores()), f2(c.serverCores()), flag}));
      }
      b.append(grid(rows));
      if (gc) {
        b.append("GC: the server's stop-the-world pauses that ended in the window, how many, their total and the "
            + "longest in ms (concurrent GC work is not a pause); - for a server without a GC log\n");
      }
      b.append("generator floor (the best closed-loop rate it reached, against any server): ")
          .append(f1(generatorFloor(w))).append("/s\n");
    }
    return b.toString();
  }

  private double generatorFloor(String w) {
    return cells.stream().filter(c -> c.workload().equals(w) && c.closedLoop())
        .mapToDouble(c -> c.measurement().perSecond()).max().orElse(0);
  }

  private List<String> workloads() {
    Map<String, Boolean> seen = new LinkedHashMap<>();
    cells.forEach(c -> seen.put(c.workload(), true));
    return new ArrayList<>(seen.keySet());
  }

  private boolean gcLogged() {
    return cells.stream().anyMatch(c -> c.gc().known());
  }

  /** The text table's and the CSV's GC columns: count, total ms, longest ms; "-" each where not logged. */
  static String[] gcFigures(GcPauses gc) {
    if (!gc.known()) {
      return new String[] {"-", "-", "-"};
    }
    return new String[] {Integer.toString(gc.count()), f2(gc.totalMs()), f2(gc.maxMs())};
  }

  private static String[] row(boolean gc, String[] head, String[] gcCells, String[] tail) {
    List<String> out = new ArrayList<>(List.of(head));
    if (gc) {
      out.addAll(List.of(gcCells));
    }
    out.addAll(List.of(tail));
    return out.toArray(String[]::new);
  }

  private static String errors(LatencyCell c) {
    Map<String, Long> e = c.measurement().sortedErrors();
    if (e.isEmpty()) {
      return "0";
    }
    List<String> parts = new ArrayList<>();
    e.forEach((k, v) -> parts.add(k + " " + v));
    return String.join(", ", parts);
  }

  private static String grid(List<String[]> rows) {
    TextGrid grid = new TextGrid(true);
    rows.forEach(r -> grid.add(List.of(r)));
    return grid.render();
  }

  static String ms(long micros) {
    return String.format(Locale.ROOT, micros >= 100_000 ? "%.0f" : micros >= 10_000 ? "%.1f" : "%.2f", micros / 1000.0);
  }

  private static String f1(double v) {
    return String.format(Locale.ROOT, "%.1f", v);
  }

  private static String f2(double v) {
    return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.2f", v);
  }
}
