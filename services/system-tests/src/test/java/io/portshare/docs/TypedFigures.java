package io.portshare.docs;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The numbers a table types by hand beside its figures: in a column that has a figure's marker,
 * every cell past the first (which says what was measured) holds no number outside markers, code
 * spans and links, whatever its unit; a count or a bare median is a figure there too. A number with
 * a unit anywhere in a page is {@link io.portshare.kit.ProseFigures}' to find.
 */
final class TypedFigures {

  private static final Pattern MARKER = Pattern.compile("<!--fig [^>]*-->.*?<!--/fig-->");
  private static final Pattern CODE_OR_LINK = Pattern.compile("`[^`]*`|\\[[^\\]]*\\]\\([^)]*\\)");
  private static final Pattern NUMBER = Pattern.compile("(?<![\\w.])[0-9]");

  private TypedFigures() {}

  /** Each cell of {@code page}'s tables that types a number in a column of figures, as the page has it. */
  static List<String> in(String page) {
    List<String> typed = new ArrayList<>();
    List<String[]> table = new ArrayList<>();
    for (String line : (page + "\n").split("\n", -1)) {
      if (line.startsWith("|")) {
        if (!line.startsWith("|---")) {
          // "64B\|1x" is one cell, read as "64B1x", as a table escapes its pipe
          table.add(line.replace("\\|", "").split("\\|"));
        }
        continue;
      }
      Set<Integer> figureColumns = new HashSet<>();
      for (String[] cells : table) {
        for (int c = 0; c < cells.length; c++) {
          if (MARKER.matcher(cells[c]).find()) {
            figureColumns.add(c);
          }
        }
      }
      for (String[] cells : table.subList(Math.min(1, table.size()), table.size())) {
        for (int c = 2; c < cells.length; c++) {
          if (figureColumns.contains(c) && typesANumber(cells[c])) {
            typed.add(cells[c].strip());
          }
        }
      }
      table.clear();
    }
    return typed;
  }

  static boolean typesANumber(String cell) {
    String bare = CODE_OR_LINK.matcher(MARKER.matcher(cell).replaceAll(" ")).replaceAll(" ");
    return NUMBER.matcher(bare).find();
  }
}
