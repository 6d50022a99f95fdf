package io.portshare.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The RPC matrix as plain-text tables, laid out like the seed table: one row per mode and worker
 * count, columns {@code 64B|1x 64B|1024x 1024B|1x 1024B|1024x}, unit 10^4 transactions/s; then the
 * p99 latency per cell and the errors.
 */
public final class TableFormatter {

  private TableFormatter() {}

  /** 10^4 transactions/s, the seed table's unit, two decimals. */
  public static String rate(double transPerSecond) {
    return String.format(Locale.ROOT, "%.2f", transPerSecond / 1e4);
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

  public static String format(MatrixResult m) {
    int rounds = m.rows().stream().flatMap(r -> r.cells().stream()).mapToInt(c -> c.rounds().size())
        .max().orElse(1);
    StringBuilder out = new StringBuilder();
    out.append("RPC echo: 10^4 transactions/s").append(rounds > 1
        ? " (median of " + rounds + " rounds, ± half the min-max range)" : "").append('\n');
    out.append(table(m, c -> {
      String s = rate(c.medianTransPerSecond());
      if (c.rounds().size() > 1) {
        s += String.format(Locale.ROOT, " ±%.0f%%", c.spreadPercent());
      }
      return c.errorCount() > 0 ? s + " *" : s;
    }));
    out.append('\n').append("p99 latency, ms").append(rounds > 1 ? " (of the median round)" : "").append('\n');
    out.append(table(m, c -> millis(c.latency().p99())));
    List<String> errors = new ArrayList<>();
    for (MatrixRow r : m.rows()) {
      for (CellResult c : r.cells()) {
        if (c.errorCount() > 0) {
          errors.add("  " + r.label() + " " + c.column().label() + ": " + errorText(c.errors()));
        }
      }
    }
    if (!errors.isEmpty()) {
      out.append('\n').append("* errors:").append('\n');
      errors.forEach(e -> out.append(e).append('\n'));
    }
    return out.toString();
  }

  public static String errorText(Map<ErrorKind, Long> errors) {
    StringBuilder s = new StringBuilder();
    errors.forEach((k, v) -> s.append(s.length() == 0 ? "" : ", ").append(v).append(' ').append(k.label()));
    return s.length() == 0 ? "none" : s.toString();
  }

  private static String table(MatrixResult m, java.util.function.Function<CellResult, String> cellText) {
    List<String[]> lines = new ArrayList<>();
    List<String> header = new ArrayList<>(List.of("workers", "mode"));
    m.columns().forEach(c -> header.add(c.label()));
    lines.add(header.toArray(new String[0]));
    for (MatrixRow r : m.rows()) {
      List<String> line = new ArrayList<>(List.of(Integer.toString(r.workers()), r.mode()));
      if (r.note() != null && r.cells().isEmpty()) {
        line.add("(" + r.note() + ")");
      } else {
        for (Column c : m.columns()) {
          CellResult cell = r.cell(c);
          line.add(cell == null ? "-" : cellText.apply(cell));
        }
      }
      lines.add(line.toArray(new String[0]));
    }
    int cols = header.size();
    int[] width = new int[cols];
    for (String[] l : lines) {
      for (int i = 0; i < l.length && i < cols; i++) {
        // A note spans the data columns; it does not widen them.
        if (!(l.length == 3 && i == 2 && cols > 3)) {
          width[i] = Math.max(width[i], l[i].length());
        }
      }
    }
    StringBuilder out = new StringBuilder();
    for (String[] l : lines) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < l.length; i++) {
        if (i > 0) {
          line.append("  ");
        }
        boolean numeric = i == 0 || i >= 2;
        boolean spanning = l.length == 3 && i == 2 && cols > 3;
        if (spanning) {
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
}
