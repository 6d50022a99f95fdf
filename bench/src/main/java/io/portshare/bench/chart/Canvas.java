package io.portshare.bench.chart;

/** The few drawing operations the charts need, so one layout renders to SVG and to PNG alike. */
interface Canvas {

  void rect(double x, double y, double w, double h, String fill, String title);

  void line(double x1, double y1, double x2, double y2, String stroke, double width);

  void polyline(double[] xs, double[] ys, String stroke);

  void circle(double x, double y, double r, String fill, String title);

  /** {@code anchor}: start, middle or end; y is the baseline. */
  void text(double x, double y, String text, double size, String anchor, String fill);
}
