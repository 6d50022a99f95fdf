package io.portshare.bench;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Writes a table under a directory: {@code table.txt}, {@code results.json}, {@code results.csv}
 * (one line per round), {@code report.html} (self-contained: inline CSS and SVG, no script, no
 * network) and {@code chart.png} (the main chart, for a README). Every one of them carries the
 * client and server CPU per operation and the client-bound flag. {@code command} is the exact
 * command line of the run: the first line of the text and the CSV, a field of the JSON.
 */
public final class ReportWriter {

  static final int CHART_W = 900;
  static final int CHART_H = 420;

  private ReportWriter() {}

  public static void writeAll(ResultTable t, String command, Path dir) throws IOException {
    Files.createDirectories(dir);
    Files.writeString(dir.resolve("table.txt"), "# " + command + "\n" + TableFormatter.format(t), StandardCharsets.UTF_8);
    Files.writeString(dir.resolve("results.json"), json(t, command).encodePrettily() + "\n", StandardCharsets.UTF_8);
    Files.writeString(dir.resolve("results.csv"), "# " + command + "\n" + csv(t), StandardCharsets.UTF_8);
    Files.writeString(dir.resolve("report.html"), html(t, command), StandardCharsets.UTF_8);
    png(t, dir.resolve("chart.png"));
  }

  static JsonObject json(ResultTable t, String command) {
    JsonObject meta = new JsonObject();
    t.meta().forEach(meta::put);
    JsonArray rows = new JsonArray();
    for (ResultRow r : t.rows()) {
      JsonArray cells = new JsonArray();
      for (ResultCell c : r.cells()) {
        JsonArray rounds = new JsonArray();
        for (Measurement m : c.rounds()) {
          rounds.add(new JsonObject()
              .put("operations", m.operations())
              .put("seconds", m.seconds())
              .put("perSecond", m.perSecond())
              .put("latencyUs", latency(m.latency()))
              .put("cpu", cpu(m))
              .put("clientBound", m.clientBound())
              .put("errors", new JsonObject(new LinkedHashMap<>(m.sortedErrors()))));
        }
        cells.add(new JsonObject()
            .put("column", c.column())
            .put("median", c.median())
            .put("min", c.min())
            .put("max", c.max())
            .put("spreadPercent", c.spreadPercent())
            .put("shown", TableFormatter.scaled(t, c.median()))
            .put("latencyUs", latency(c.latency()))
            .put("clientCpuUsPerOp", number(c.clientCpuMicrosPerOp()))
            .put("serverCpuUsPerOp", number(c.serverCpuMicrosPerOp()))
            .put("clientBound", c.clientBound())
            .put("errorCount", c.errorCount())
            .put("rounds", rounds));
      }
      JsonObject row = new JsonObject().put("label", r.label()).put("keys", new JsonObject(new LinkedHashMap<>(r.keys())))
          .put("cells", cells);
      if (r.note() != null) {
        row.put("note", r.note());
      }
      rows.add(row);
    }
    return new JsonObject().put("title", t.title()).put("unit", t.unit()).put("shownUnit", t.shownUnit())
        .put("command", command).put("meta", meta).put("columns", new JsonArray(t.columns())).put("rows", rows);
  }

  private static JsonObject latency(LatencySummary l) {
    return new JsonObject().put("count", l.count()).put("mean", Math.round(l.mean() * 10) / 10.0)
        .put("p50", l.p50()).put("p90", l.p90()).put("p99", l.p99()).put("p99.9", l.p999()).put("max", l.max());
  }

  private static JsonObject cpu(Measurement m) {
    CpuSpent c = m.cpu();
    return new JsonObject().put("clientSeconds", number(c.client())).put("serverSeconds", number(c.server()))
        .put("clientCores", c.clientCores()).put("clientUtilisation", number(c.clientUtilisation()))
        .put("clientUsPerOp", number(m.clientCpuMicrosPerOp())).put("serverUsPerOp", number(m.serverCpuMicrosPerOp()));
  }

  /** JSON has no NaN: unknown is null. */
  private static Double number(double v) {
    return Double.isNaN(v) ? null : Math.round(v * 1000) / 1000.0;
  }

  private static String csvNumber(double v, String format) {
    return Double.isNaN(v) ? "" : String.format(Locale.ROOT, format, v);
  }

  static String csv(ResultTable t) {
    List<String> keys = t.keyNames();
    Set<String> kinds = t.errorKinds();
    StringBuilder s = new StringBuilder();
    keys.forEach(k -> s.append(k).append(','));
    s.append("column,round,operations,seconds,per_second,p50_us,p90_us,p99_us,p999_us,max_us,"
        + "client_cpu_s,server_cpu_s,client_cpu_us_per_op,server_cpu_us_per_op,client_utilisation,client_bound");
    kinds.forEach(k -> s.append(",errors_").append(k.replace('-', '_')));
    s.append('\n');
    for (ResultRow r : t.rows()) {
      for (ResultCell c : r.cells()) {
        for (int i = 0; i < c.rounds().size(); i++) {
          Measurement m = c.rounds().get(i);
          LatencySummary l = m.latency();
          keys.forEach(k -> s.append(r.keys().getOrDefault(k, "")).append(','));
          s.append(c.column()).append(',').append(i + 1).append(',').append(m.operations()).append(',')
              .append(String.format(Locale.ROOT, "%.3f,%.1f", m.seconds(), m.perSecond()))
              .append(',').append(l.p50()).append(',').append(l.p90()).append(',').append(l.p99())
              .append(',').append(l.p999()).append(',').append(l.max())
              .append(',').append(csvNumber(m.cpu().client(), "%.2f"))
              .append(',').append(csvNumber(m.cpu().server(), "%.2f"))
              .append(',').append(csvNumber(m.clientCpuMicrosPerOp(), "%.2f"))
              .append(',').append(csvNumber(m.serverCpuMicrosPerOp(), "%.2f"))
              .append(',').append(csvNumber(m.cpu().clientUtilisation(), "%.3f"))
              .append(',').append(m.clientBound());
          kinds.forEach(k -> s.append(',').append(m.errors().getOrDefault(k, 0L)));
          s.append('\n');
        }
      }
    }
    return s.toString();
  }

  static String html(ResultTable t, String command) {
    StringBuilder h = new StringBuilder();
    String title = "portshare benchmark: " + t.title();
    h.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>")
        .append(SvgCanvas.escape(title)).append("</title>\n")
        .append("<style>body{font-family:sans-serif;margin:2em;color:#222;max-width:1000px}"
            + "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:4px 10px;text-align:right}"
            + "th.k,td.k{text-align:left}"
            + "pre{background:#f6f6f6;padding:1em;overflow:auto}.err{color:#b00}.bound{background:#fde8e8}"
            + ".charts svg{margin:0.5em 0}</style>\n")
        .append("</head><body>\n<h1>").append(SvgCanvas.escape(title)).append("</h1>\n");
    h.append("<p>Command: <code>").append(SvgCanvas.escape(command)).append("</code></p>\n<table>\n");
    t.meta().forEach((k, v) -> h.append("<tr><th class=\"k\">").append(SvgCanvas.escape(k))
        .append("</th><td class=\"k\">").append(SvgCanvas.escape(v)).append("</td></tr>\n"));
    h.append("</table>\n<h2>Throughput</h2>\n<div class=\"charts\">\n");
    SvgCanvas main = new SvgCanvas(CHART_W, CHART_H);
    Charts.throughput(t, main, CHART_W, CHART_H);
    h.append(main.finish());
    h.append("</div>\n<h2>Table: ").append(SvgCanvas.escape(t.shownUnit()))
        .append(", p99 ms, CPU per operation (client / server, us), errors</h2>\n<table>\n<tr>");
    List<String> keys = t.keyNames();
    keys.forEach(k -> h.append("<th class=\"k\">").append(SvgCanvas.escape(k)).append("</th>"));
    t.columns().forEach(c -> h.append("<th>").append(SvgCanvas.escape(c)).append("</th>"));
    h.append("</tr>\n");
    for (ResultRow r : t.rows()) {
      h.append("<tr>");
      keys.forEach(k -> h.append("<td class=\"k\">").append(SvgCanvas.escape(r.keys().getOrDefault(k, ""))).append("</td>"));
      if (r.cells().isEmpty()) {
        h.append("<td colspan=\"").append(t.columns().size()).append("\" class=\"k\">")
            .append(SvgCanvas.escape(String.valueOf(r.note()))).append("</td>");
      } else {
        for (String col : t.columns()) {
          ResultCell c = r.cell(col);
          if (c == null) {
            h.append("<td>-</td>");
            continue;
          }
          h.append(c.clientBound() ? "<td class=\"bound\">" : "<td>").append("<b>")
              .append(TableFormatter.scaled(t, c.median())).append("</b>");
          if (c.rounds().size() > 1) {
            h.append(String.format(Locale.ROOT, " ±%.0f%%", c.spreadPercent()));
          }
          h.append("<br><small>p99 ").append(TableFormatter.millis(c.latency().p99())).append(" ms</small>")
              .append("<br><small>CPU ").append(TableFormatter.micros(c.clientCpuMicrosPerOp())).append(" / ")
              .append(TableFormatter.micros(c.serverCpuMicrosPerOp())).append(" us</small>");
          if (c.clientBound()) {
            h.append("<br><small class=\"err\">client-bound</small>");
          }
          if (c.errorCount() > 0) {
            h.append("<br><small class=\"err\">").append(SvgCanvas.escape(TableFormatter.errorText(c.errors())))
                .append("</small>");
          }
          h.append("</td>");
        }
      }
      h.append("</tr>\n");
    }
    h.append("</table>\n");
    if (t.anyClientBound()) {
      h.append("<p class=\"err\">").append(SvgCanvas.escape(TableFormatter.CLIENT_BOUND_NOTE)).append("</p>\n");
    }
    h.append("<h2>Latency percentiles</h2>\n<div class=\"charts\">\n");
    for (String col : t.columns()) {
      SvgCanvas c = new SvgCanvas(CHART_W / 2 - 10, 320);
      Charts.latency(t, col, c, CHART_W / 2 - 10, 320);
      h.append(c.finish());
    }
    h.append("</div>\n<h2>As text</h2>\n<pre>").append(SvgCanvas.escape(TableFormatter.format(t))).append("</pre>\n");
    h.append("<p>Files next to this one: results.json, results.csv, table.txt, chart.png, and a log per server process.</p>\n");
    h.append("</body></html>\n");
    return h.toString();
  }

  static void png(ResultTable t, Path file) throws IOException {
    System.setProperty("java.awt.headless", "true");
    ImageCanvas c = new ImageCanvas(CHART_W, CHART_H);
    Charts.throughput(t, c, CHART_W, CHART_H);
    c.write(file);
  }

  static List<String> files() {
    return List.of("table.txt", "results.json", "results.csv", "report.html", "chart.png");
  }
}
