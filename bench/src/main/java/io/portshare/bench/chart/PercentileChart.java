package io.portshare.bench.chart;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * A latency distribution chart: percentiles on a log x axis (the distance to 100%: 50%, 90%, 99%,
 * 99.9%, 99.99%, the maximum drawn one decade further) and latency on a log y axis, one line per
 * server, so the peers of a cell sit on one chart.
 */
public final class PercentileChart {

  private static final String[] COLORS = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759"};
  private static final int W = 460;
  private static final int H = 260;
  private static final int LEFT = 60;
  private static final int RIGHT = 130;
  private static final int TOP = 28;
  private static final int BOTTOM = 36;

  private PercentileChart() {}

  /** A line of the chart: its name and microsecond values in the order of {@code xLabels}. */
  public record Series(String name, long[] micros) {}

  /** {@code quantiles}: where each value sits (percent, e.g. 99.9), the last one standing for the maximum. */
  public static String svg(String title, String[] xLabels, double[] quantiles, List<Series> series) {
    SvgCanvas c = new SvgCanvas(W, H);
    draw(c, title, xLabels, quantiles, series);
    return c.finish();
  }

  /** The same chart as a PNG file. */
  public static void png(String title, String[] xLabels, double[] quantiles, List<Series> series, Path file)
      throws IOException {
    ImageCanvas c = new ImageCanvas(W, H);
    draw(c, title, xLabels, quantiles, series);
    c.write(file);
  }

  private static void draw(Canvas c, String title, String[] xLabels, double[] quantiles, List<Series> series) {
    double lo = Double.MAX_VALUE;
    double hi = 0;
    for (Series s : series) {
      for (long v : s.micros()) {
        lo = Math.min(lo, Math.max(1, v));
        hi = Math.max(hi, Math.max(1, v));
      }
    }
    if (hi == 0) {
      lo = 1;
      hi = 10;
    }
    double yMin = Math.floor(Math.log10(lo));
    double yMax = Math.max(yMin + 1, Math.ceil(Math.log10(hi)));
    double xMin = x(quantiles[0]);
    double xMax = x(quantiles[quantiles.length - 1]);
    double plotW = W - LEFT - RIGHT;
    double plotH = H - TOP - BOTTOM;
    c.text(LEFT, 16, title, 12, "start", "#000");
    for (double d = yMin; d <= yMax; d++) {
      double y = TOP + plotH - (d - yMin) / (yMax - yMin) * plotH;
      c.line(LEFT, y, LEFT + plotW, y, "#dddddd", 1);
      c.text(LEFT - 4, y + 4, micros(Math.pow(10, d)), 10, "end", "#333333");
    }
    for (int i = 0; i < quantiles.length; i++) {
      double x = LEFT + (x(quantiles[i]) - xMin) / (xMax - xMin) * plotW;
      c.line(x, TOP, x, TOP + plotH, "#dddddd", 1);
      c.text(x, TOP + plotH + 14, xLabels[i], 10, "middle", "#333333");
    }
    c.text(LEFT + plotW / 2, H - 4, "percentile (log scale of 1/(1-p))", 10, "middle", "#333333");
    for (int s = 0; s < series.size(); s++) {
      Series line = series.get(s);
      String color = COLORS[s % COLORS.length];
      double[] xs = new double[quantiles.length];
      double[] ys = new double[quantiles.length];
      for (int i = 0; i < quantiles.length; i++) {
        xs[i] = LEFT + (x(quantiles[i]) - xMin) / (xMax - xMin) * plotW;
        ys[i] = TOP + plotH - (Math.log10(Math.max(1, line.micros()[i])) - yMin) / (yMax - yMin) * plotH;
      }
      c.polyline(xs, ys, color);
      for (int i = 0; i < xs.length; i++) {
        c.circle(xs[i], ys[i], 3, color, line.name() + " " + xLabels[i] + ": " + micros(line.micros()[i]));
      }
      c.rect(W - RIGHT + 10, TOP + 16 * s, 10, 10, color, null);
      c.text(W - RIGHT + 24, TOP + 16 * s + 9, line.name(), 10, "start", "#333333");
    }
  }

  /** The distance to 100% on a log scale: 50% -> log10(2), 99.9% -> 3. */
  private static double x(double percent) {
    return Math.log10(100 / (100 - percent));
  }

  /** 850 us, 12 ms, 1.5 s. */
  public static String micros(double us) {
    if (us >= 1_000_000) {
      return String.format(Locale.ROOT, "%.3g s", us / 1e6);
    }
    if (us >= 1000) {
      return String.format(Locale.ROOT, "%.3g ms", us / 1e3);
    }
    return String.format(Locale.ROOT, "%.0f us", us);
  }
}
