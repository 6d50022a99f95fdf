package io.portshare.bench.results;

import java.util.ArrayList;
import java.util.List;

/** Lines of cells laid out in aligned columns: the first left-aligned, the rest right-aligned. */
final class TextGrid {

  private final List<List<String>> lines = new ArrayList<>();

  TextGrid add(List<String> cells) {
    lines.add(List.copyOf(cells));
    return this;
  }

  String render() {
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
        line.append(i == 0 ? "" : "  ").append(i == 0 ? l.get(i) + pad : pad + l.get(i));
      }
      out.append(line.toString().stripTrailing()).append('\n');
    }
    return out.toString();
  }
}
