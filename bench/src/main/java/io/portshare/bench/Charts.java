package io.portshare.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Layout of the report's charts, drawn onto any {@link Canvas}. */
final class Charts {

  private static final String[] PALETTE = {
      "#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"};
  private static final String AXIS = "#333333";
  private static final String GRID = "#dddddd";

  private Charts() {}

  static String color(int i) {
    return PALETTE[i % PALETTE.length];
  }

  static List<ResultRow> measuredRows(ResultTable m) {
    List<ResultRow> rows = new ArrayList<>();
    for (ResultRow r : m.rows()) {
      if (!r.cells().isEmpty()) {
        rows.add(r);
      }
    }
    return rows;
  }

  /** A round axis maximum (1, 2 or 5 times a power of ten) at or above {@code v}. */
  static double niceMax(double v) {
    if (v <= 0) {
      return 1;
    }
    double p = Math.pow(10, Math.floor(Math.log10(v)));
    for (double f : new double[] {1, 2, 5, 10}) {
      if (f * p >= v) {
        return f * p;
      }
    }
    return 10 * p;
  }

  /** Grouped bars: a group per column, a bar per row, in the table's shown unit; whiskers show min-max over rounds. */
  static void throughput(ResultTable m, Canvas c, int width, int height) {
    List<ResultRow> rows = measuredRows(m);
    double left = 60;
    double right = 20;
    double top = 40;
    double legendHeight = 22 * ((rows.size() + 3) / 4);
    double bottom = 40 + legendHeight;
    double plotW = width - left - right;
    double plotH = height - top - bottom;
    double max = 0;
    for (ResultRow r : rows) {
      for (ResultCell cell : r.cells()) {
        max = Math.max(max, cell.max() / m.scale());
      }
    }
    max = niceMax(max);
    c.text(width / 2.0, 24, m.title() + ": " + m.shownUnit() + " (higher is better)", 16, "middle", AXIS);
    for (int i = 0; i <= 5; i++) {
      double v = max * i / 5;
      double y = top + plotH - plotH * i / 5;
      c.line(left, y, left + plotW, y, GRID, 1);
      c.text(left - 6, y + 4, fmt(v), 11, "end", AXIS);
    }
    c.line(left, top + plotH, left + plotW, top + plotH, AXIS, 1);
    int groups = m.columns().size();
    double groupW = plotW / Math.max(1, groups);
    double barW = Math.max(2, (groupW * 0.8) / Math.max(1, rows.size()));
    for (int g = 0; g < groups; g++) {
      String col = m.columns().get(g);
      double x0 = left + g * groupW + groupW * 0.1;
      for (int i = 0; i < rows.size(); i++) {
        ResultCell cell = rows.get(i).cell(col);
        if (cell == null) {
          continue;
        }
        double v = cell.median() / m.scale();
        double h = plotH * v / max;
        double x = x0 + i * barW;
        c.rect(x, top + plotH - h, barW - 1, h, color(i), rows.get(i).label() + " " + col + ": "
            + TableFormatter.scaled(m, cell.median()) + " x " + m.shownUnit() + ", p99 "
            + TableFormatter.millis(cell.latency().p99()) + " ms" + (cell.clientBound() ? ", client-bound" : ""));
        if (cell.rounds().size() > 1) {
          double yMin = top + plotH - plotH * cell.min() / m.scale() / max;
          double yMax = top + plotH - plotH * cell.max() / m.scale() / max;
          double cx = x + (barW - 1) / 2;
          c.line(cx, yMin, cx, yMax, AXIS, 1);
          c.line(cx - 3, yMin, cx + 3, yMin, AXIS, 1);
          c.line(cx - 3, yMax, cx + 3, yMax, AXIS, 1);
        }
      }
      c.text(left + g * groupW + groupW / 2, top + plotH + 18, col, 12, "middle", AXIS);
    }
    legend(rows, c, left, height - legendHeight - 4, plotW);
  }

  private static void legend(List<ResultRow> rows, Canvas c, double x, double y, double width) {
    double cellW = width / 4;
    for (int i = 0; i < rows.size(); i++) {
      double lx = x + (i % 4) * cellW;
      double ly = y + (i / 4) * 22;
      c.rect(lx, ly + 4, 12, 12, color(i), null);
      c.text(lx + 18, ly + 15, rows.get(i).label(), 12, "start", AXIS);
    }
  }

  /** Latency percentiles of one column, one line per row, log scale in ms (lower is better). */
  static void latency(ResultTable m, String col, Canvas c, int width, int height) {
    List<ResultRow> rows = measuredRows(m);
    double left = 56;
    double right = 16;
    double top = 34;
    double legendHeight = 22 * ((rows.size() + 3) / 4);
    double bottom = 34 + legendHeight;
    double plotW = width - left - right;
    double plotH = height - top - bottom;
    long minUs = Long.MAX_VALUE;
    long maxUs = 1;
    for (ResultRow r : rows) {
      ResultCell cell = r.cell(col);
      if (cell != null && cell.latency().count() > 0) {
        for (long v : cell.latency().values()) {
          minUs = Math.min(minUs, Math.max(1, v));
          maxUs = Math.max(maxUs, v);
        }
      }
    }
    if (minUs == Long.MAX_VALUE) {
      minUs = 1;
    }
    double lo = Math.floor(Math.log10(minUs / 1000.0));
    double hi = Math.max(lo + 1, Math.ceil(Math.log10(maxUs / 1000.0)));
    c.text(width / 2.0, 20, "Latency " + col + ", ms (log scale, lower is better)", 14, "middle", AXIS);
    for (double d = lo; d <= hi; d++) {
      double y = top + plotH - plotH * (d - lo) / (hi - lo);
      c.line(left, y, left + plotW, y, GRID, 1);
      c.text(left - 6, y + 4, fmt(Math.pow(10, d)), 11, "end", AXIS);
    }
    int points = LatencySummary.LABELS.length;
    double step = plotW / (points - 1);
    for (int p = 0; p < points; p++) {
      c.text(left + p * step, top + plotH + 18, LatencySummary.LABELS[p], 12, "middle", AXIS);
    }
    for (int i = 0; i < rows.size(); i++) {
      ResultCell cell = rows.get(i).cell(col);
      if (cell == null || cell.latency().count() == 0) {
        continue;
      }
      long[] v = cell.latency().values();
      double[] xs = new double[points];
      double[] ys = new double[points];
      for (int p = 0; p < points; p++) {
        xs[p] = left + p * step;
        double lv = Math.log10(Math.max(1, v[p]) / 1000.0);
        ys[p] = top + plotH - plotH * (lv - lo) / (hi - lo);
      }
      c.polyline(xs, ys, color(i));
      for (int p = 0; p < points; p++) {
        c.circle(xs[p], ys[p], 3, color(i), rows.get(i).label() + " " + LatencySummary.LABELS[p] + ": "
            + TableFormatter.millis(v[p]) + " ms");
      }
    }
    legend(rows, c, left, height - legendHeight - 4, plotW);
  }

  static String fmt(double v) {
    if (v == Math.rint(v)) {
      return String.format(Locale.ROOT, "%.0f", v);
    }
    return v >= 1 ? String.format(Locale.ROOT, "%.1f", v) : String.format(Locale.ROOT, "%s", (float) v);
  }
}
