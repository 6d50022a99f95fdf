package io.portshare.kit;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A raw result file as the bench writes it: header lines {@code key: value}, then sections, each a
 * title line, a line of column names and a line per row, cells apart by two spaces or more. The
 * figures in the docs are looked up here ({@link Figures}), so that none is typed by hand. Files of
 * other shapes (a script's summary lines, a soak's report) are read by line: {@link #after},
 * {@link #lines} and {@link #block}; a file of one line per round by {@link #rounds}.
 */
public final class RawTable {

  /** One section: its title, its column names, and each row's cells by column. */
  record Section(String title, List<String> lines, List<String> columns, Map<String, List<String>> rows) {}

  private final Map<String, String> header = new LinkedHashMap<>();
  private final List<Section> sections = new ArrayList<>();
  private final List<String> text = new ArrayList<>();

  private RawTable() {}

  /** Reads the text of a raw file. */
  public static RawTable parse(String text) {
    RawTable t = new RawTable();
    String[] lines = text.split("\n", -1);
    t.text.addAll(List.of(lines));
    int i = 0;
    // The header: "key: value" lines up to the first blank one (the first line may be the command),
    // and the blocks after it whose every line is "key: value" too (a title, then the run's facts).
    boolean header = true;
    while (header && i < lines.length) {
      while (i < lines.length && lines[i].isBlank()) {
        i++;
      }
      int start = i;
      int end = start;
      while (end < lines.length && !lines[end].isBlank()) {
        end++;
      }
      header = start == 0 || List.of(lines).subList(start, end).stream().allMatch(l -> l.indexOf(": ") > 0);
      if (header) {
        for (; i < end; i++) {
          int colon = lines[i].indexOf(": ");
          if (colon > 0) {
            t.header.putIfAbsent(lines[i].substring(0, colon).strip(), lines[i].substring(colon + 2).strip());
          }
        }
      } else {
        i = start;
      }
    }
    while (i < lines.length) {
      while (i < lines.length && lines[i].isBlank()) {
        i++;
      }
      int start = i;
      while (i < lines.length && !lines[i].isBlank()) {
        i++;
      }
      if (i - start >= 2) {
        t.sections.add(section(List.of(lines).subList(start, i)));
      }
    }
    return t;
  }

  private static Section section(List<String> block) {
    List<String> columns = cells(block.get(1).strip());
    // A header names the rows' own column too when a row has as many cells as it has names.
    if (block.size() > 2 && cells(block.get(2).strip()).size() == columns.size()) {
      columns = columns.subList(1, columns.size());
    }
    Map<String, List<String>> rows = new LinkedHashMap<>();
    for (String line : block.subList(2, block.size())) {
      List<String> cells = cells(line.strip());
      if (cells.size() == columns.size() + 1) {
        rows.putIfAbsent(cells.get(0), cells.subList(1, cells.size()));
      }
    }
    return new Section(block.get(0).strip(), List.copyOf(block), columns, rows);
  }

  private static List<String> cells(String line) {
    return List.of(line.split("\\s{2,}"));
  }

  /** The value of a header line, e.g. {@code load average at start}. */
  public Optional<String> header(String key) {
    return Optional.ofNullable(header.get(key));
  }

  /**
   * The first section whose title starts with {@code titleStart}. A file repeats some titles ("of
   * which user" under RPC and again under static files), so {@code PARENT :: CHILD} names the first
   * section titled CHILD… after the first one titled PARENT… (a marker cannot hold a {@code >}).
   */
  Optional<Section> section(String titleStart) {
    int after = titleStart.indexOf(" :: ");
    if (after < 0) {
      return sections.stream().filter(s -> s.title().startsWith(titleStart)).findFirst();
    }
    String parent = titleStart.substring(0, after);
    String child = titleStart.substring(after + 4);
    for (int p = 0; p < sections.size(); p++) {
      if (sections.get(p).title().startsWith(parent)) {
        return sections.subList(p + 1, sections.size()).stream().filter(s -> s.title().startsWith(child))
            .findFirst();
      }
    }
    return Optional.empty();
  }

  /** The titles of the sections, in the file's order. */
  public List<String> titles() {
    return sections.stream().map(Section::title).toList();
  }

  /** The column names of the first section titled {@code titleStart}…, empty if there is none. */
  public List<String> columns(String titleStart) {
    return section(titleStart).map(Section::columns).orElse(List.of());
  }

  /** The row labels of the first section titled {@code titleStart}…, in order, empty if there is none. */
  public List<String> rows(String titleStart) {
    return section(titleStart).map(s -> List.copyOf(s.rows().keySet())).orElse(List.of());
  }

  /**
   * A cell, by the start of its section's title, its row's label and its column's name; the error
   * says which of the three was not found and what there is instead.
   */
  public String cell(String titleStart, String row, String column) {
    Section s = section(titleStart).orElseThrow(() -> new IllegalArgumentException("no section titled \""
        + titleStart + "…\"; there are: " + sections.stream().map(Section::title).toList()));
    int c = s.columns().indexOf(column);
    if (c < 0) {
      throw new IllegalArgumentException("no column \"" + column + "\" in \"" + s.title() + "\"; there are: "
          + s.columns());
    }
    List<String> cells = s.rows().get(row);
    if (cells == null) {
      throw new IllegalArgumentException("no row \"" + row + "\" in \"" + s.title() + "\"; there are: "
          + s.rows().keySet());
    }
    return cells.get(c);
  }

  /**
   * The word after {@code word} on the first line that starts with {@code lineStart} (leading blanks
   * aside), without a trailing comma, semicolon or colon: in {@code # rpc-server java17 12s  ready
   * 10.76 s (8.32-11.25)  first 2 s 18506 trans/s, warm 18618, ratio 0.93 (0.87-0.99)}, the word
   * after {@code ratio} is {@code 0.93}.
   */
  public String after(String lineStart, String word) {
    String line = text.stream().map(String::strip).filter(l -> l.startsWith(lineStart)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no line starting \"" + lineStart + "\""));
    int at = line.indexOf(word);
    String rest = at < 0 ? "" : line.substring(at + word.length()).strip();
    if (rest.isEmpty()) {
      throw new IllegalArgumentException("nothing after \"" + word + "\" in \"" + line + "\"");
    }
    return rest.split("\\s+")[0].replaceAll("[,;:]$", "");
  }

  /**
   * The lines from the first that starts with {@code first} through the next that starts with
   * {@code last} (leading blanks aside), as the file has them.
   */
  public List<String> lines(String first, String last) {
    for (int i = 0; i < text.size(); i++) {
      if (text.get(i).strip().startsWith(first)) {
        for (int j = i + 1; j < text.size(); j++) {
          if (text.get(j).strip().startsWith(last)) {
            return List.copyOf(text.subList(i, j + 1));
          }
        }
        throw new IllegalArgumentException("no line starting \"" + last + "\" after \"" + first + "\"");
      }
    }
    throw new IllegalArgumentException("no line starting \"" + first + "\"");
  }

  /** The lines from the first that starts with {@code first} (leading blanks aside) up to a blank one. */
  public List<String> block(String first) {
    for (int i = 0; i < text.size(); i++) {
      if (text.get(i).strip().startsWith(first)) {
        int end = i;
        while (end < text.size() && !text.get(end).isBlank()) {
          end++;
        }
        return List.copyOf(text.subList(i, end));
      }
    }
    throw new IllegalArgumentException("no line starting \"" + first + "\"");
  }

  /**
   * Over a file of one line per round ({@code 1k.bin|close nginx 3 20320.87 10.8 ...}, named by a
   * {@code # case server round req_s user_us_per_req ...} line), the median of {@code column} over
   * the lines that start with {@code lineStart} and a blank, to the places the file gives (an even
   * count's two middle values averaged, half to even); or with {@code range} their min-max.
   */
  public String rounds(String lineStart, String column, boolean range) {
    // The column names stand on a # line of words; a # line of the header ("# commit: ...") names none.
    int c = text.stream().filter(l -> l.startsWith("#") && !l.contains(": "))
        .map(l -> List.of(l.substring(1).strip().split("\\s+")))
        .filter(names -> names.contains(column)).findFirst().map(names -> names.indexOf(column))
        .orElseThrow(() -> new IllegalArgumentException("no # line names a column \"" + column + "\""));
    List<BigDecimal> values = new ArrayList<>();
    for (String line : text) {
      String l = line.strip();
      if (!l.startsWith("#") && l.startsWith(lineStart + " ")) {
        String[] words = l.split("\\s+");
        if (c < words.length) {
          values.add(new BigDecimal(words[c]));
        }
      }
    }
    if (values.isEmpty()) {
      throw new IllegalArgumentException("no round's line starts \"" + lineStart + "\"");
    }
    values.sort(null);
    if (range) {
      return values.get(0).toPlainString() + "-" + values.get(values.size() - 1).toPlainString();
    }
    int n = values.size();
    int places = values.stream().mapToInt(BigDecimal::scale).max().orElse(0);
    BigDecimal median = n % 2 == 1 ? values.get(n / 2)
        : values.get(n / 2 - 1).add(values.get(n / 2)).divide(BigDecimal.valueOf(2));
    return median.setScale(places, RoundingMode.HALF_EVEN).toPlainString();
  }

  /** A whole section as it stands in the file, title first. */
  public List<String> excerpt(String titleStart) {
    return section(titleStart).map(Section::lines).orElseThrow(() -> new IllegalArgumentException(
        "no section titled \"" + titleStart + "…\"; there are: " + sections.stream().map(Section::title).toList()));
  }
}
