package io.portshare.bench.chart;

import io.portshare.bench.results.Cell;
import io.portshare.bench.results.Row;
import io.portshare.bench.results.Table;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Layout of the report's charts, drawn onto any {@link Canvas}. */
public final class Charts {

  private static final String[] PALETTE = {
      "#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"};
  private static final String AXIS = "#333333";
  private static final String GRID = "#dddddd";

  private Charts() {}

  static final int WIDTH = 900;
  static final int HEIGHT = 420;

  /** The throughput chart as inline SVG, for the HTML report. */
  public static String svg(Table t) {
    SvgCanvas c = new SvgCanvas(WIDTH, HEIGHT);
    throughput(t, c, WIDTH, HEIGHT);
    return "<h2>Chart</h2>\n" + c.finish();
  }

  /** The throughput chart as PNG, for a README. */
  public static void png(Table t, Path file) throws IOException {
    System.setProperty("java.awt.headless", "true");
    ImageCanvas c = new ImageCanvas(WIDTH, HEIGHT);
    throughput(t, c, WIDTH, HEIGHT);
    c.write(file);
  }

  static String color(int i) {
    return PALETTE[i % PALETTE.length];
  }

  static List<Row> measuredRows(Table m) {
    List<Row> rows = new ArrayList<>();
    for (Row r : m.rows()) {
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

  /** Grouped bars of the headline metric: a group per column, a bar per row; whiskers show min-max over rounds. */
  static void throughput(Table m, Canvas c, int width, int height) {
    String key = m.headline().key();
    List<Row> rows = measuredRows(m);
    double left = 60;
    double right = 20;
    double top = 40;
    double legendHeight = 22 * ((rows.size() + 3) / 4);
    double bottom = 40 + legendHeight;
    double plotW = width - left - right;
    double plotH = height - top - bottom;
    double max = 0;
    for (Row r : rows) {
      for (Cell cell : r.cells()) {
        max = Math.max(max, cell.max(key));
      }
    }
    max = niceMax(max);
    c.text(width / 2.0, 24, m.title() + ": " + m.headline().label() + " (higher is better)", 16, "middle", AXIS);
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
        Cell cell = rows.get(i).cell(col);
        if (cell == null) {
          continue;
        }
        double v = cell.median(key);
        double h = plotH * v / max;
        double x = x0 + i * barW;
        c.rect(x, top + plotH - h, barW - 1, h, color(i), rows.get(i).label() + " " + col + ": "
            + fmt2(v) + " " + m.headline().label() + (cell.clientBound() ? ", client-bound" : ""));
        if (cell.rounds().size() > 1) {
          double yMin = top + plotH - plotH * cell.min(key) / max;
          double yMax = top + plotH - plotH * cell.max(key) / max;
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

  private static void legend(List<Row> rows, Canvas c, double x, double y, double width) {
    double cellW = width / 4;
    for (int i = 0; i < rows.size(); i++) {
      double lx = x + (i % 4) * cellW;
      double ly = y + (i / 4) * 22;
      c.rect(lx, ly + 4, 12, 12, color(i), null);
      c.text(lx + 18, ly + 15, rows.get(i).label(), 12, "start", AXIS);
    }
  }

  private static String fmt2(double v) {
    return String.format(Locale.ROOT, "%.2f", v);
  }

  static String fmt(double v) {
    if (v == Math.rint(v)) {
      return String.format(Locale.ROOT, "%.0f", v);
    }
    return v >= 1 ? String.format(Locale.ROOT, "%.1f", v) : String.format(Locale.ROOT, "%s", (float) v);
  }
}
