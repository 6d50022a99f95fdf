package io.portshare.bench.chart;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.Ellipse2D;
import java.awt.geom.Line2D;
import java.awt.geom.Path2D;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import javax.imageio.ImageIO;

/** Draws the same charts into a PNG with Java2D (headless), for the README. */
final class ImageCanvas implements Canvas {

  private final BufferedImage image;
  private final Graphics2D g;

  ImageCanvas(int width, int height) {
    image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
    g = image.createGraphics();
    g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
    g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
    g.setColor(Color.WHITE);
    g.fillRect(0, 0, width, height);
  }

  private static Color color(String css) {
    return Color.decode(css.startsWith("#") ? css : "#000000");
  }

  @Override
  public void rect(double x, double y, double w, double h, String fill, String title) {
    g.setColor(color(fill));
    g.fill(new Rectangle2D.Double(x, y, w, h));
  }

  @Override
  public void line(double x1, double y1, double x2, double y2, String stroke, double width) {
    g.setColor(color(stroke));
    g.setStroke(new BasicStroke((float) width));
    g.draw(new Line2D.Double(x1, y1, x2, y2));
  }

  @Override
  public void polyline(double[] xs, double[] ys, String stroke) {
    Path2D.Double p = new Path2D.Double();
    for (int i = 0; i < xs.length; i++) {
      if (i == 0) {
        p.moveTo(xs[i], ys[i]);
      } else {
        p.lineTo(xs[i], ys[i]);
      }
    }
    g.setColor(color(stroke));
    g.setStroke(new BasicStroke(2f));
    g.draw(p);
  }

  @Override
  public void circle(double x, double y, double r, String fill, String title) {
    g.setColor(color(fill));
    g.fill(new Ellipse2D.Double(x - r, y - r, 2 * r, 2 * r));
  }

  @Override
  public void text(double x, double y, String text, double size, String anchor, String fill) {
    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, (int) Math.round(size)));
    g.setColor(color(fill));
    double w = g.getFontMetrics().stringWidth(text);
    double dx = "middle".equals(anchor) ? -w / 2 : "end".equals(anchor) ? -w : 0;
    g.drawString(text, (float) (x + dx), (float) y);
  }

  void write(Path file) throws IOException {
    g.dispose();
    ImageIO.write(image, "png", file.toFile());
  }
}
