package io.portshare.docs;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The measured figures a page types by hand in its tables: every Markdown table cell past the first
 * (which says what was measured) that, with its figures' markers taken out, still holds a measured
 * number: a number with a unit of time, rate, ratio, share or size per operation ({@code 12.3 µs},
 * {@code 1.15x}, {@code 20,000 req/s}, {@code 0.36 CPU-s/GB}, {@code 3.6 KiB}, {@code 40%}). In a
 * table that has markers, any number beside them is typed too, whatever its unit.
 *
 * <p>Not figures of ours, so allowed: what a cell quotes in {@code (published: ...)}, the seeds'
 * figures; an option's value right after its name ({@code `--max-uri` (4 KiB)}); a threshold
 * ({@code at least 3x}, {@code ≤ 1.2x}); numbers in code spans and links; and the page's own
 * {@code allowed} phrases, constants of the code that a test pins.
 */
final class TypedFigures {

  private static final Pattern MARKER = Pattern.compile("<!--fig [^>]*-->.*?<!--/fig-->");
  private static final Pattern PUBLISHED = Pattern.compile("\\(published:[^)]*\\)");
  private static final Pattern OPTION_VALUE = Pattern.compile("`--[a-z0-9-]+`\\s*(\\([^)]*\\)|[0-9][^\\s,;)]*)");
  private static final Pattern THRESHOLD = Pattern.compile(
      "(at least|at most|within|above|below|under|over|≥|≤|>=|<=)\\s*[0-9][0-9.,]*\\s*\\S*");
  private static final Pattern CODE_OR_LINK = Pattern.compile("`[^`]*`|\\[[^\\]]*\\]\\([^)]*\\)");
  private static final Pattern MEASURED = Pattern.compile(
      "(?<![\\w.])[0-9][0-9,]*(\\.[0-9]+)?\\s?(µs|us|ms|x|req/s|requests/s|trans/s|transactions/s|CPU-s/GB|s/GB|%"
          + "|(B|KiB|MiB|KB|MB)(/| per )(conn|connection|request|held|transaction))(?![\\w/])");
  private static final Pattern NUMBER = Pattern.compile("(?<![\\w.])[0-9]");

  private TypedFigures() {}

  /** Each table cell of {@code page} that types a measured figure, as the page has it. */
  static List<String> in(String page, List<String> allowed) {
    List<String> typed = new ArrayList<>();
    List<String[]> table = new ArrayList<>();
    for (String line : (page + "\n").split("\n", -1)) {
      if (line.startsWith("|")) {
        if (!line.startsWith("|---")) {
          // "64B\|1x" is one cell, read as "64B1x": no ratio, as a table escapes its pipe
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
          if (typesAFigure(cells[c], figureColumns.contains(c), allowed)) {
            typed.add(cells[c].strip());
          }
        }
      }
      table.clear();
    }
    return typed;
  }

  static boolean typesAFigure(String cell, boolean besideMarkers, List<String> allowed) {
    String bare = MARKER.matcher(cell).replaceAll(" ");
    for (String phrase : allowed) {
      bare = bare.replace(phrase, " ");
    }
    bare = PUBLISHED.matcher(bare).replaceAll(" ");
    bare = OPTION_VALUE.matcher(bare).replaceAll(" ");
    bare = CODE_OR_LINK.matcher(bare).replaceAll(" ");
    bare = THRESHOLD.matcher(bare).replaceAll(" ");
    return MEASURED.matcher(bare).find() || besideMarkers && NUMBER.matcher(bare).find();
  }
}
