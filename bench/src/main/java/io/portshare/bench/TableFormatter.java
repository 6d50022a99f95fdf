package io.portshare.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * A table as plain text, laid out like the seed table: one line per row (its keys first, e.g.
 * workers and mode), one column per cell; then p99 latency, then client and server CPU per
 * operation. A cell the client bound is marked {@code !}, a cell with errors {@code *}.
 */
public final class TableFormatter {

  static final String CLIENT_BOUND_NOTE = "! client-bound: the load generator used more CPU than the server or kept its "
      + "cores busy; the figure measures the client, not the server";

  private TableFormatter() {}

  /** 10^4 transactions/s, the seed table's unit, two decimals. */
  public static String rate(double transPerSecond) {
    return String.format(Locale.ROOT, "%.2f", transPerSecond / 1e4);
  }

  /** A value in the table's shown unit, two decimals (none at scale 1 above 100). */
  public static String scaled(ResultTable t, double value) {
    double v = value / t.scale();
    return String.format(Locale.ROOT, t.scale() == 1 && v >= 100 ? "%.0f" : "%.2f", v);
  }

  /** Microseconds shown as milliseconds with three significant figures or so. */
  public static String millis(long micros) {
    double ms = micros / 1000.0;
    if (ms < 10) {
      return String.format(Locale.ROOT, "%.2f", ms);
    }
    if (ms < 100) {
      return String.format(Locale.ROOT, "%.1f", ms);
    }
    return String.format(Locale.ROOT, "%.0f", ms);
  }

  /** CPU microseconds, one decimal, or "?" when not known. */
  public static String micros(double us) {
    return Double.isNaN(us) ? "?" : String.format(Locale.ROOT, "%.1f", us);
  }

  /** The cell's figure with its spread and marks, as the main table shows it. */
  static String cellText(ResultTable t, ResultCell c) {
    String s = scaled(t, c.median());
    if (c.rounds().size() > 1) {
      s += String.format(Locale.ROOT, " ±%.0f%%", c.spreadPercent());
    }
    if (c.clientBound()) {
      s += " !";
    }
    return c.errorCount() > 0 ? s + " *" : s;
  }

  public static String format(ResultTable t) {
    int rounds = t.rows().stream().flatMap(r -> r.cells().stream()).mapToInt(c -> c.rounds().size()).max().orElse(1);
    StringBuilder out = new StringBuilder();
    out.append(t.title()).append(": ").append(t.shownUnit()).append(rounds > 1
        ? " (median of " + rounds + " rounds, ± half the min-max range)" : "").append('\n');
    out.append(table(t, c -> cellText(t, c)));
    if (t.keyNames().contains("workers")) {
      out.append('\n').append("per worker: ").append(t.shownUnit()).append(" / workers").append('\n');
      out.append(table(t, c -> perWorker(t, c)));
    }
    out.append('\n').append("p99 latency, ms").append(rounds > 1 ? " (of the median round)" : "").append('\n');
    out.append(table(t, c -> millis(c.latency().p99())));
    out.append('\n').append("CPU per operation, us: client / server").append(rounds > 1 ? " (medians)" : "").append('\n');
    out.append(table(t, c -> micros(c.clientCpuMicrosPerOp()) + " / " + micros(c.serverCpuMicrosPerOp())));
    if (t.anyClientBound()) {
      out.append('\n').append(CLIENT_BOUND_NOTE).append('\n');
    }
    List<String> errors = new ArrayList<>();
    for (ResultRow r : t.rows()) {
      for (ResultCell c : r.cells()) {
        if (c.errorCount() > 0) {
          errors.add("  " + r.label() + " " + c.column() + ": " + errorText(c.errors()));
        }
      }
    }
    if (!errors.isEmpty()) {
      out.append('\n').append("* errors:").append('\n');
      errors.forEach(e -> out.append(e).append('\n'));
    }
    return out.toString();
  }

  /** The cell's median divided by its row's worker count ("-" when the row has none). */
  private static String perWorker(ResultTable t, ResultCell c) {
    for (ResultRow r : t.rows()) {
      if (r.cells().contains(c)) {
        String w = r.keys().get("workers");
        return w != null && isNumber(w) && Integer.parseInt(w) > 0 ? scaled(t, c.median() / Integer.parseInt(w)) : "-";
      }
    }
    return "-";
  }

  /** One run's CPU line: client and server per operation, the client's share of its cores, the flag. */
  public static String cpuText(Measurement r) {
    CpuSpent c = r.cpu();
    return String.format(Locale.ROOT, "client %s, server %s (client busy %.0f%% of %d core(s))%s",
        micros(r.clientCpuMicrosPerOp()), micros(r.serverCpuMicrosPerOp()), c.clientUtilisation() * 100,
        c.clientCores(), r.clientBound() ? "  CLIENT-BOUND: this figure measures the load generator" : "");
  }

  public static String errorText(Map<String, Long> errors) {
    StringBuilder s = new StringBuilder();
    errors.forEach((k, v) -> s.append(s.length() == 0 ? "" : ", ").append(v).append(' ').append(k));
    return s.length() == 0 ? "none" : s.toString();
  }

  private static String table(ResultTable t, Function<ResultCell, String> cellText) {
    List<String> keys = t.keyNames();
    List<String[]> lines = new ArrayList<>();
    List<String> header = new ArrayList<>(keys);
    header.addAll(t.columns());
    lines.add(header.toArray(new String[0]));
    for (ResultRow r : t.rows()) {
      List<String> line = new ArrayList<>();
      keys.forEach(k -> line.add(r.keys().getOrDefault(k, "")));
      if (r.note() != null && r.cells().isEmpty()) {
        line.add("(" + r.note() + ")");
      } else {
        for (String c : t.columns()) {
          ResultCell cell = r.cell(c);
          line.add(cell == null ? "-" : cellText.apply(cell));
        }
      }
      lines.add(line.toArray(new String[0]));
    }
    int cols = header.size();
    int spanAt = keys.size();
    int[] width = new int[cols];
    for (String[] l : lines) {
      boolean note = l.length == spanAt + 1 && cols > spanAt + 1;
      for (int i = 0; i < l.length && i < cols; i++) {
        if (!(note && i == spanAt)) { // a note spans the data columns; it does not widen them
          width[i] = Math.max(width[i], l[i].length());
        }
      }
    }
    StringBuilder out = new StringBuilder();
    for (String[] l : lines) {
      boolean note = l.length == spanAt + 1 && cols > spanAt + 1;
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < l.length; i++) {
        if (i > 0) {
          line.append("  ");
        }
        boolean numeric = i >= spanAt || isNumber(l[i]);
        if (note && i == spanAt) {
          line.append(l[i]);
        } else {
          String pad = " ".repeat(Math.max(0, width[i] - l[i].length()));
          line.append(numeric ? pad + l[i] : l[i] + pad);
        }
      }
      out.append(line.toString().stripTrailing()).append('\n');
    }
    return out.toString();
  }

  private static boolean isNumber(String s) {
    return !s.isEmpty() && s.chars().allMatch(Character::isDigit);
  }
}
