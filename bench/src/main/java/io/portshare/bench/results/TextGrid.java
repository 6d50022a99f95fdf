package io.portshare.bench.results;

import java.util.ArrayList;
import java.util.List;

/**
 * Lines of cells laid out in aligned columns two spaces apart, as kit's RawTable reads them: the
 * first left-aligned, the rest right-aligned (the last too unless it is a note, left-aligned).
 */
public final class TextGrid {

  private final List<List<String>> lines = new ArrayList<>();
  private final boolean noteLast;

  public TextGrid() {
    this(false);
  }

  /** {@code noteLast}: the last column is text, left-aligned. */
  public TextGrid(boolean noteLast) {
    this.noteLast = noteLast;
  }

  public TextGrid add(List<String> cells) {
    lines.add(List.copyOf(cells));
    return this;
  }

  public String render() {
    int cols = lines.stream().mapToInt(List::size).max().orElse(0);
    int[] width = new int[cols];
    for (List<String> l : lines) {
      for (int i = 0; i < l.size(); i++) {
        width[i] = Math.max(width[i], l.get(i).length());
      }
    }
    StringBuilder out = new StringBuilder();
    for (List<String> l : lines) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < l.size(); i++) {
        String pad = " ".repeat(width[i] - l.get(i).length());
        boolean left = i == 0 || noteLast && i == l.size() - 1;
        line.append(i == 0 ? "" : "  ").append(left ? l.get(i) + pad : pad + l.get(i));
      }
      out.append(line.toString().stripTrailing()).append('\n');
    }
    return out.toString();
  }
}
