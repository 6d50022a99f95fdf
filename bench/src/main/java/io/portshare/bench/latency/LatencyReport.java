package io.portshare.bench.latency;

import java.util.ArrayList;
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
    boolean gc = gcLogged();
    return new LatencyTable(meta, cells.stream().map(c -> LatencyTable.Line.of(c, gc)).toList(), gc).text();
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

  static String errors(LatencyCell c) {
    Map<String, Long> e = c.measurement().sortedErrors();
    if (e.isEmpty()) {
      return "0";
    }
    List<String> parts = new ArrayList<>();
    e.forEach((k, v) -> parts.add(k + " " + v));
    return String.join(", ", parts);
  }

  static String ms(long micros) {
    return String.format(Locale.ROOT, micros >= 100_000 ? "%.0f" : micros >= 10_000 ? "%.1f" : "%.2f", micros / 1000.0);
  }

  private static String f1(double v) {
    return String.format(Locale.ROOT, "%.1f", v);
  }

  static String f2(double v) {
    return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.2f", v);
  }
}
