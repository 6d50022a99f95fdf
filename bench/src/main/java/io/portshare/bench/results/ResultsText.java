package io.portshare.bench.results;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code table.txt}: per table, the headline metric as median (min-max) per cell and the ratio,
 * then one block of medians (and their ratio) per other metric; {@code !} marks a client-bound cell, {@code *} one
 * with errors.
 */
public final class ResultsText {

  private ResultsText() {}

  public static String of(Results r) {
    StringBuilder out = new StringBuilder();
    String command = r.meta().get("command");
    if (command != null) {
      out.append("command: ").append(command).append('\n');
    }
    out.append(r.title()).append('\n');
    r.meta().forEach((k, v) -> {
      if (!k.equals("command")) {
        out.append("  ").append(k).append(": ").append(v).append('\n');
      }
    });
    for (Table t : r.tables()) {
      out.append('\n').append(table(t));
    }
    return out.toString();
  }

  public static String table(Table t) {
    StringBuilder out = new StringBuilder();
    int rounds = t.rounds();
    Metric head = t.headline();
    out.append(t.title()).append(": ").append(head.label())
        .append(rounds > 1 ? ", median of " + rounds + " rounds (min-max)" : "").append('\n');
    TextGrid grid = new TextGrid();
    List<String> header = new ArrayList<>(List.of(""));
    header.addAll(t.columns());
    if (t.ratio() != null) {
      header.add(t.ratio().label());
    }
    grid.add(header);
    List<String> notes = new ArrayList<>();
    for (Row row : t.rows()) {
      List<String> line = new ArrayList<>(List.of(row.label()));
      if (row.cells().isEmpty() && row.note() != null) {
        line.add("(" + row.note() + ")");
        grid.add(line);
        continue;
      }
      for (String col : t.columns()) {
        Cell c = row.cell(col);
        line.add(c == null ? "-" : headline(c, head));
        if (c != null && c.clientBound()) {
          notes.add("  ! " + row.label() + ", " + col + ": client-bound in "
              + c.rounds().stream().filter(Round::clientBound).count() + " of " + c.rounds().size() + " rounds");
        }
        if (c != null && c.errors() > 0) {
          notes.add("  * " + row.label() + ", " + col + ": " + c.errors() + " errors");
        }
      }
      if (t.ratio() != null) {
        line.add(number(t.ratio().of(row, head.key()), 2));
      }
      grid.add(line);
    }
    out.append(grid.render());
    for (Metric m : t.metrics().subList(1, t.metrics().size())) {
      out.append('\n').append(m.label()).append(rounds > 1 ? " (median)" : "").append('\n');
      TextGrid g = new TextGrid();
      List<String> h = new ArrayList<>(List.of(""));
      h.addAll(t.columns());
      if (t.ratio() != null) {
        h.add(t.ratio().label());
      }
      g.add(h);
      for (Row row : t.rows()) {
        List<String> line = new ArrayList<>(List.of(row.label()));
        for (String col : t.columns()) {
          Cell c = row.cell(col);
          line.add(c == null ? "-" : number(c.median(m.key()), m.decimals()));
        }
        if (t.ratio() != null) {
          line.add(number(t.ratio().of(row, m.key()), 2));
        }
        g.add(line);
      }
      out.append(g.render());
    }
    if (!notes.isEmpty()) {
      out.append('\n');
      notes.forEach(n -> out.append(n).append('\n'));
    }
    return out.toString();
  }

  private static String headline(Cell c, Metric m) {
    String s = number(c.median(m.key()), m.decimals());
    if (c.rounds().size() > 1) {
      s += " (" + number(c.min(m.key()), m.decimals()) + "-" + number(c.max(m.key()), m.decimals()) + ")";
    }
    return s + (c.clientBound() ? " !" : "") + (c.errors() > 0 ? " *" : "");
  }

  /** A figure with the metric's decimals; "-" for none. */
  public static String number(double v, int decimals) {
    return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%." + decimals + "f", v);
  }
}
