package io.portshare.bench.chart;

import java.util.Locale;

/** Builds an inline SVG element: no script, no external reference, so the report works offline. */
final class SvgCanvas implements Canvas {

  private final StringBuilder svg = new StringBuilder();

  SvgCanvas(int width, int height) {
    svg.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(width).append("\" height=\"")
        .append(height).append("\" viewBox=\"0 0 ").append(width).append(' ').append(height)
        .append("\" font-family=\"sans-serif\">\n");
  }

  private static String n(double v) {
    return String.format(Locale.ROOT, "%.1f", v);
  }

  static String escape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
  }

  @Override
  public void rect(double x, double y, double w, double h, String fill, String title) {
    svg.append("<rect x=\"").append(n(x)).append("\" y=\"").append(n(y)).append("\" width=\"").append(n(w))
        .append("\" height=\"").append(n(h)).append("\" fill=\"").append(fill).append('"');
    if (title == null) {
      svg.append("/>\n");
    } else {
      svg.append("><title>").append(escape(title)).append("</title></rect>\n");
    }
  }

  @Override
  public void line(double x1, double y1, double x2, double y2, String stroke, double width) {
    svg.append("<line x1=\"").append(n(x1)).append("\" y1=\"").append(n(y1)).append("\" x2=\"").append(n(x2))
        .append("\" y2=\"").append(n(y2)).append("\" stroke=\"").append(stroke).append("\" stroke-width=\"")
        .append(n(width)).append("\"/>\n");
  }

  @Override
  public void polyline(double[] xs, double[] ys, String stroke) {
    svg.append("<polyline fill=\"none\" stroke-width=\"2\" stroke=\"").append(stroke).append("\" points=\"");
    for (int i = 0; i < xs.length; i++) {
      svg.append(n(xs[i])).append(',').append(n(ys[i])).append(' ');
    }
    svg.append("\"/>\n");
  }

  @Override
  public void circle(double x, double y, double r, String fill, String title) {
    svg.append("<circle cx=\"").append(n(x)).append("\" cy=\"").append(n(y)).append("\" r=\"").append(n(r))
        .append("\" fill=\"").append(fill).append("\"><title>").append(escape(title)).append("</title></circle>\n");
  }

  @Override
  public void text(double x, double y, String text, double size, String anchor, String fill) {
    svg.append("<text x=\"").append(n(x)).append("\" y=\"").append(n(y)).append("\" font-size=\"").append(n(size))
        .append("\" text-anchor=\"").append(anchor).append("\" fill=\"").append(fill).append("\">")
        .append(escape(text)).append("</text>\n");
  }

  String finish() {
    return svg.append("</svg>\n").toString();
  }
}
