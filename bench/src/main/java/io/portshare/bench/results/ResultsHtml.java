package io.portshare.bench.results;

import java.util.Locale;

/**
 * {@code report.html}, self-contained (inline CSS, no script, no network): what ran where, then
 * each table with the headline median and spread per cell, the other metrics beneath it, client-bound
 * cells shaded; the text tables at the end.
 */
public final class ResultsHtml {

  private ResultsHtml() {}

  public static String of(Results r) {
    StringBuilder h = new StringBuilder();
    h.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>")
        .append(escape(r.title())).append("</title>\n")
        .append("<style>body{font-family:sans-serif;margin:2em;color:#222;max-width:1100px}"
            + "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:4px 10px;text-align:right;"
            + "vertical-align:top}th:first-child,td:first-child{text-align:left}small{color:#555}"
            + "td.client{background:#fff3cd}.err{color:#b00}pre{background:#f6f6f6;padding:1em;overflow:auto}</style>\n")
        .append("</head><body>\n<h1>").append(escape(r.title())).append("</h1>\n<table>\n");
    r.meta().forEach((k, v) -> h.append("<tr><th>").append(escape(k)).append("</th><td style=\"text-align:left\">")
        .append(escape(v)).append("</td></tr>\n"));
    h.append("</table>\n");
    for (Table t : r.tables()) {
      table(h, t);
    }
    h.append("<h2>As text</h2>\n<pre>").append(escape(ResultsText.of(r))).append("</pre>\n");
    h.append("<p>Shaded cells were client-bound: the load generator used more CPU than the server, or was busy"
        + " nearly all the time; their figures say more about the client.</p>\n</body></html>\n");
    return h.toString();
  }

  private static void table(StringBuilder h, Table t) {
    Metric head = t.headline();
    int rounds = t.rounds();
    h.append("<h2>").append(escape(t.title())).append(": ").append(escape(head.label())).append("</h2>\n");
    if (rounds > 1) {
      h.append("<p>Median of ").append(rounds).append(" rounds, ± half the min-max range.</p>\n");
    }
    h.append("<table>\n<tr><th></th>");
    t.columns().forEach(c -> h.append("<th>").append(escape(c)).append("</th>"));
    if (t.ratio() != null) {
      h.append("<th>").append(escape(t.ratio().label())).append("</th>");
    }
    h.append("</tr>\n");
    for (Row row : t.rows()) {
      h.append("<tr><td>").append(escape(row.label())).append("</td>");
      if (row.cells().isEmpty() && row.note() != null) {
        h.append("<td colspan=\"").append(t.columns().size() + (t.ratio() != null ? 1 : 0))
            .append("\" style=\"text-align:left\">").append(escape(row.note())).append("</td></tr>\n");
        continue;
      }
      for (String col : t.columns()) {
        Cell c = row.cell(col);
        if (c == null) {
          h.append("<td>-</td>");
          continue;
        }
        h.append(c.clientBound() ? "<td class=\"client\">" : "<td>").append("<b>")
            .append(ResultsText.number(c.median(head.key()), head.decimals())).append("</b>");
        if (c.rounds().size() > 1) {
          h.append(String.format(Locale.ROOT, " ±%.0f%%", c.spreadPercent(head.key())));
        }
        for (Metric m : t.metrics().subList(1, t.metrics().size())) {
          h.append("<br><small>").append(escape(m.label())).append(' ')
              .append(ResultsText.number(c.median(m.key()), m.decimals())).append("</small>");
        }
        if (c.clientBound()) {
          h.append("<br><small>client-bound</small>");
        }
        if (c.errors() > 0) {
          h.append("<br><small class=\"err\">").append(c.errors()).append(" errors</small>");
        }
        h.append("</td>");
      }
      if (t.ratio() != null) {
        h.append("<td><b>").append(ResultsText.number(t.ratio().of(row, head.key()), 2)).append("</b></td>");
      }
      h.append("</tr>\n");
    }
    h.append("</table>\n");
  }

  static String escape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
  }
}
