package io.portshare.bench;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * Writes a matrix under a directory: {@code table.txt}, {@code results.json}, {@code results.csv},
 * {@code report.html} (self-contained: inline CSS and SVG, no script, no network) and
 * {@code rpc-matrix.png} (the main chart, for the README).
 */
public final class ReportWriter {

  static final int CHART_W = 900;
  static final int CHART_H = 420;

  private ReportWriter() {}

  public static void writeAll(MatrixResult m, Path dir) throws IOException {
    Files.createDirectories(dir);
    Files.writeString(dir.resolve("table.txt"), TableFormatter.format(m), StandardCharsets.UTF_8);
    Files.writeString(dir.resolve("results.json"), json(m).encodePrettily() + "\n", StandardCharsets.UTF_8);
    Files.writeString(dir.resolve("results.csv"), csv(m), StandardCharsets.UTF_8);
    Files.writeString(dir.resolve("report.html"), html(m), StandardCharsets.UTF_8);
    png(m, dir.resolve("rpc-matrix.png"));
  }

  static JsonObject json(MatrixResult m) {
    JsonObject meta = new JsonObject();
    m.meta().forEach(meta::put);
    JsonArray rows = new JsonArray();
    for (MatrixRow r : m.rows()) {
      JsonArray cells = new JsonArray();
      for (CellResult c : r.cells()) {
        JsonArray rounds = new JsonArray();
        for (LoadResult lr : c.rounds()) {
          rounds.add(new JsonObject()
              .put("transactions", lr.transactions())
              .put("seconds", lr.seconds())
              .put("transPerSecond", lr.transPerSecond())
              .put("latencyUs", latency(lr.latency()))
              .put("errors", errors(lr)));
        }
        cells.add(new JsonObject()
            .put("column", c.column().label())
            .put("payloadBytes", c.column().payloadSize())
            .put("transactionsPerConnection", c.column().perConnection())
            .put("transPerSecondMedian", c.medianTransPerSecond())
            .put("transPerSecondMin", c.minTransPerSecond())
            .put("transPerSecondMax", c.maxTransPerSecond())
            .put("tenThousandTransPerSecond", c.medianTransPerSecond() / 1e4)
            .put("latencyUs", latency(c.latency()))
            .put("errorCount", c.errorCount())
            .put("rounds", rounds));
      }
      JsonObject row = new JsonObject().put("mode", r.mode()).put("workers", r.workers()).put("cells", cells);
      if (r.note() != null) {
        row.put("note", r.note());
      }
      rows.add(row);
    }
    JsonArray columns = new JsonArray();
    m.columns().forEach(c -> columns.add(c.label()));
    return new JsonObject().put("unit", "transactions/s").put("meta", meta).put("columns", columns).put("rows", rows);
  }

  private static JsonObject latency(LatencySummary l) {
    return new JsonObject().put("count", l.count()).put("mean", Math.round(l.mean() * 10) / 10.0)
        .put("p50", l.p50()).put("p90", l.p90()).put("p99", l.p99()).put("p99.9", l.p999()).put("max", l.max());
  }

  private static JsonObject errors(LoadResult r) {
    JsonObject e = new JsonObject();
    r.errors().forEach((k, v) -> e.put(k.label(), v));
    return e;
  }

  static String csv(MatrixResult m) {
    StringBuilder s = new StringBuilder("mode,workers,column,payload_bytes,transactions_per_connection,round,"
        + "transactions,seconds,trans_per_s,p50_us,p90_us,p99_us,p999_us,max_us");
    for (ErrorKind k : ErrorKind.values()) {
      s.append(",errors_").append(k.label().replace('-', '_'));
    }
    s.append('\n');
    for (MatrixRow r : m.rows()) {
      for (CellResult c : r.cells()) {
        for (int i = 0; i < c.rounds().size(); i++) {
          LoadResult lr = c.rounds().get(i);
          LatencySummary l = lr.latency();
          s.append(r.mode()).append(',').append(r.workers()).append(',').append(c.column().label()).append(',')
              .append(c.column().payloadSize()).append(',').append(c.column().perConnection()).append(',')
              .append(i + 1).append(',').append(lr.transactions()).append(',')
              .append(String.format(Locale.ROOT, "%.3f,%.1f", lr.seconds(), lr.transPerSecond()))
              .append(',').append(l.p50()).append(',').append(l.p90()).append(',').append(l.p99())
              .append(',').append(l.p999()).append(',').append(l.max());
          for (ErrorKind k : ErrorKind.values()) {
            s.append(',').append(lr.errors().getOrDefault(k, 0L));
          }
          s.append('\n');
        }
      }
    }
    return s.toString();
  }

  static String html(MatrixResult m) {
    StringBuilder h = new StringBuilder();
    h.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>portshare RPC benchmark</title>\n")
        .append("<style>body{font-family:sans-serif;margin:2em;color:#222;max-width:1000px}"
            + "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:4px 10px;text-align:right}"
            + "th:first-child,td:first-child,th:nth-child(2),td:nth-child(2){text-align:left}"
            + "pre{background:#f6f6f6;padding:1em;overflow:auto}.err{color:#b00}.charts svg{margin:0.5em 0}</style>\n")
        .append("</head><body>\n<h1>portshare RPC benchmark</h1>\n");
    h.append("<table>\n");
    m.meta().forEach((k, v) -> h.append("<tr><th>").append(SvgCanvas.escape(k)).append("</th><td style=\"text-align:left\">")
        .append(SvgCanvas.escape(v)).append("</td></tr>\n"));
    h.append("</table>\n<h2>Throughput</h2>\n<div class=\"charts\">\n");
    SvgCanvas main = new SvgCanvas(CHART_W, CHART_H);
    Charts.throughput(m, main, CHART_W, CHART_H);
    h.append(main.finish());
    h.append("</div>\n<h2>Table: 10<sup>4</sup> transactions/s, p99 ms, errors</h2>\n<table>\n<tr><th>workers</th><th>mode</th>");
    m.columns().forEach(c -> h.append("<th>").append(c.label()).append("</th>"));
    h.append("</tr>\n");
    for (MatrixRow r : m.rows()) {
      h.append("<tr><td>").append(r.workers()).append("</td><td>").append(SvgCanvas.escape(r.mode())).append("</td>");
      if (r.cells().isEmpty()) {
        h.append("<td colspan=\"").append(m.columns().size()).append("\" style=\"text-align:left\">")
            .append(SvgCanvas.escape(String.valueOf(r.note()))).append("</td>");
      } else {
        for (Column col : m.columns()) {
          CellResult c = r.cell(col);
          if (c == null) {
            h.append("<td>-</td>");
            continue;
          }
          h.append("<td><b>").append(TableFormatter.rate(c.medianTransPerSecond())).append("</b>");
          if (c.rounds().size() > 1) {
            h.append(String.format(Locale.ROOT, " ±%.0f%%", c.spreadPercent()));
          }
          h.append("<br><small>p99 ").append(TableFormatter.millis(c.latency().p99())).append(" ms</small>");
          if (c.errorCount() > 0) {
            h.append("<br><small class=\"err\">").append(SvgCanvas.escape(TableFormatter.errorText(c.errors())))
                .append("</small>");
          }
          h.append("</td>");
        }
      }
      h.append("</tr>\n");
    }
    h.append("</table>\n<h2>Latency percentiles</h2>\n<div class=\"charts\">\n");
    for (Column col : m.columns()) {
      SvgCanvas c = new SvgCanvas(CHART_W / 2 - 10, 320);
      Charts.latency(m, col, c, CHART_W / 2 - 10, 320);
      h.append(c.finish());
    }
    h.append("</div>\n<h2>As text</h2>\n<pre>").append(SvgCanvas.escape(TableFormatter.format(m))).append("</pre>\n");
    h.append("<p>Files next to this one: results.json, results.csv, table.txt, rpc-matrix.png, and a log per server process.</p>\n");
    h.append("</body></html>\n");
    return h.toString();
  }

  static void png(MatrixResult m, Path file) throws IOException {
    System.setProperty("java.awt.headless", "true");
    ImageCanvas c = new ImageCanvas(CHART_W, CHART_H);
    Charts.throughput(m, c, CHART_W, CHART_H);
    c.write(file);
  }

  static List<String> files() {
    return List.of("table.txt", "results.json", "results.csv", "report.html", "rpc-matrix.png");
  }
}
