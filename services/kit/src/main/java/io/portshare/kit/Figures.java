package io.portshare.kit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The docs' figures, written from the raw files that measured them, never by hand. A figure in a
 * page stands between two markers that say where it comes from:
 *
 * <pre>
 * &lt;!--fig bench/report/ledger/x/table.txt ; RPC echo: each row over c-echo ; rpc-server ; 64B\|1x ; x--&gt;1.14x&lt;!--/fig--&gt;
 * &lt;!--fig bench/report/ledger/x/table.txt ; header ; load average at start--&gt;0.60 1.51 1.43&lt;!--/fig--&gt;
 * &lt;!--excerpt bench/report/ledger/x/table.txt ; static files: each row over nginx--&gt;
 * (a fenced block: the section as the file has it)
 * &lt;!--/excerpt--&gt;
 * &lt;!--fig bench/report/coldstart.txt ; line ; # rpc-server java17 12s ; ratio--&gt;0.93&lt;!--/fig--&gt;
 * &lt;!--excerpt bench/report/soak/short.txt ; lines ; scenario ; exit--&gt; (lines FIRST… through LAST…)
 * </pre>
 *
 * <p>A cell is found by the start of its section's title, its row and its column ({@link RawTable});
 * {@code \|} stands for {@code |}, which a Markdown table would otherwise split on. The last field
 * formats a cell: none (as it stands), {@code median} (its first number), {@code x} (that number and
 * "x", a ratio) or {@code range} (what its parentheses hold). A file that is not a table of sections
 * is read by line: {@code line ; LINE-START ; WORD} is the word after WORD on that line, and an
 * excerpt {@code lines ; FIRST ; LAST} the lines from one that starts FIRST through one that starts
 * LAST, or {@code block ; FIRST} from one that starts FIRST up to a blank line. A file of one line
 * per round gives {@code rounds ; LINE-START ; COLUMN [; range]}: the median (or min-max) of that
 * column over the rounds' lines. {@code header ; age} says how old the file's figures are against
 * the code ({@link RawAge}: "measured at d4d44ad; rpc-server and the runtime changed since"), and
 * {@code header ; edited by hand} what its header says was changed by hand ({@link RawHeader}).
 * Run over the repository it rewrites every figure, prints each age's commit counts, then what
 * {@link FiguresCheck} finds; with {@code --check} it only says what is wrong, as the docs test does.
 *
 * <pre>java -cp services/kit/target/classes io.portshare.kit.Figures . [--check]</pre>
 */
public final class Figures {

  private static final Pattern FIGURE = Pattern.compile("<!--fig ([^>]*?)-->(.*?)<!--/fig-->");
  private static final Pattern EXCERPT = Pattern.compile("<!--excerpt ([^>]*?)-->\\n(.*?)<!--/excerpt-->",
      Pattern.DOTALL);

  private final Path root;
  private final Map<Path, String> texts = new HashMap<>();
  private final Map<Path, RawTable> raw = new HashMap<>();
  private final Map<Path, RawAge> ages = new TreeMap<>();
  private final Git git;

  public Figures(Path root) {
    this.root = root.toAbsolutePath().normalize();
    this.git = new Git(this.root);
  }

  public static void main(String[] args) throws IOException {
    if (args.length < 1 || args.length > 2 || args.length == 2 && !args[1].equals("--check")) {
      System.err.println("usage: Figures REPOSITORY_DIR [--check]");
      System.exit(2);
    }
    Figures figures = new Figures(Path.of(args[0]));
    boolean check = args.length == 2;
    List<String> problems;
    try {
      if (!check) {
        for (Path page : figures.pages()) {
          String text = Files.readString(page, StandardCharsets.UTF_8);
          String written = figures.render(text);
          if (!written.equals(text)) {
            Files.writeString(page, written, StandardCharsets.UTF_8);
            System.out.println("figures: wrote " + figures.root.relativize(page));
          }
        }
        figures.ages.values().forEach(age -> System.out.println("figures: " + age.counts()));
      }
      problems = new FiguresCheck(figures).problems();
    } catch (IllegalArgumentException e) {
      System.err.println("figures: " + e.getMessage());
      System.exit(1);
      return;
    }
    problems.forEach(p -> System.out.println("figures: " + p));
    System.exit(problems.isEmpty() ? 0 : 1);
  }

  /** The repository this reads. */
  public Path root() {
    return root;
  }

  /** The pages whose figures are generated: README.md, docs/, every module's and report's README. */
  public List<Path> pages() throws IOException {
    List<Path> pages = new ArrayList<>();
    try (Stream<Path> all = Files.walk(root)) {
      all.filter(p -> p.toString().endsWith(".md"))
          .filter(p -> {
            String rel = root.relativize(p).toString().replace('\\', '/');
            return !rel.startsWith(".") && !rel.contains("/target/") && !rel.contains("node_modules")
                && !rel.startsWith("bench-results/");
          })
          .sorted().forEach(pages::add);
    }
    return pages;
  }

  /** {@code page} with every figure and excerpt written from its raw file; an unknown source throws. */
  public String render(String page) {
    String withExcerpts = replace(EXCERPT, page, m -> "<!--excerpt " + m.group(1) + "-->\n" + excerpt(m.group(1))
        + "<!--/excerpt-->");
    return replace(FIGURE, withExcerpts, m -> "<!--fig " + m.group(1) + "-->" + figure(m.group(1)) + "<!--/fig-->");
  }

  private static String replace(Pattern p, String text, Function<Matcher, String> with) {
    Matcher m = p.matcher(text);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      m.appendReplacement(out, Matcher.quoteReplacement(with.apply(m)));
    }
    m.appendTail(out);
    return out.toString();
  }

  private String figure(String source) {
    List<String> f = fields(source);
    RawTable t = table(f.get(0));
    if (f.size() == 3 && f.get(1).equals("header") && f.get(2).equals("age")) {
      Path file = file(f.get(0));
      return ages.computeIfAbsent(file, p -> RawAge.of(f.get(0), text(f.get(0)), git)).text();
    }
    if (f.size() == 3 && f.get(1).equals("header") && f.get(2).equals("edited by hand")) {
      return RawHeader.of(text(f.get(0))).editedByHand().orElseThrow(() -> new IllegalArgumentException(f.get(0)
          + " has no \"edited by hand:\" line"));
    }
    if (f.size() == 3 && f.get(1).equals("header")) {
      return t.header(f.get(2)).orElseThrow(() -> new IllegalArgumentException(f.get(0) + " has no header line \""
          + f.get(2) + ":\""));
    }
    if (f.size() == 4 && f.get(1).equals("line")) {
      try {
        return t.after(f.get(2), f.get(3)).replace("|", "\\|");
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(f.get(0) + ": " + e.getMessage());
      }
    }
    if (f.get(1).equals("rounds")) {
      if (f.size() != 4 && !(f.size() == 5 && f.get(4).equals("range"))) {
        throw new IllegalArgumentException("a rounds figure is PATH ; rounds ; LINE-START ; COLUMN [; range]: <!--fig "
            + source + "-->");
      }
      try {
        return t.rounds(f.get(2), f.get(3), f.size() == 5);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(f.get(0) + ": " + e.getMessage());
      }
    }
    if (f.size() != 4 && f.size() != 5) {
      throw new IllegalArgumentException("a figure is PATH ; SECTION ; ROW ; COLUMN [; FORMAT] or PATH ; header ;"
          + " KEY: <!--fig " + source + "-->");
    }
    String cell;
    try {
      cell = t.cell(f.get(1), f.get(2), f.get(3));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(f.get(0) + ": " + e.getMessage());
    }
    return format(cell, f.size() == 5 ? f.get(4) : "", source);
  }

  static String format(String cell, String format, String source) {
    String median = cell.split("\\s+")[0];
    if ((format.equals("median") || format.equals("x")) && !median.matches("[0-9][0-9.,]*")) {
      // A cell of runs that disagree (ledger-runs), or of no measurement: its spread may be shown, never a figure.
      throw new IllegalArgumentException("\"" + cell + "\" is no figure to quote: <!--fig " + source + "-->");
    }
    return switch (format) {
      case "" -> cell.replace("|", "\\|");
      case "median" -> median;
      case "x" -> median + "x";
      case "range" -> {
        int open = cell.indexOf('(');
        int close = cell.indexOf(')', open + 1);
        if (open < 0 || close < 0) {
          throw new IllegalArgumentException("\"" + cell + "\" has no range in parentheses: <!--fig " + source + "-->");
        }
        yield cell.substring(open + 1, close);
      }
      default -> throw new IllegalArgumentException("unknown format \"" + format
          + "\" (none, median, x or range): <!--fig " + source + "-->");
    };
  }

  private String excerpt(String source) {
    List<String> f = fields(source);
    boolean byLine = f.size() == 4 && f.get(1).equals("lines");
    boolean block = f.size() == 3 && f.get(1).equals("block");
    if (f.size() != 2 && !byLine && !block) {
      throw new IllegalArgumentException("an excerpt is PATH ; SECTION, PATH ; lines ; FIRST ; LAST or PATH ; block ;"
          + " FIRST: <!--excerpt " + source + "-->");
    }
    List<String> lines;
    try {
      RawTable t = table(f.get(0));
      lines = byLine ? t.lines(f.get(2), f.get(3)) : block ? t.block(f.get(2)) : t.excerpt(f.get(1));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(f.get(0) + ": " + e.getMessage());
    }
    return "```\n" + String.join("\n", lines) + "\n```\n";
  }

  private static List<String> fields(String source) {
    List<String> f = new ArrayList<>();
    for (String part : source.split(" ; ", -1)) {
      f.add(part.strip().replace("\\|", "|"));
    }
    return f;
  }

  private RawTable table(String path) {
    return raw.computeIfAbsent(file(path), f -> RawTable.parse(text(path)));
  }

  /** The text of the raw file {@code path}, a path inside the repository. */
  String text(String path) {
    return texts.computeIfAbsent(file(path), f -> {
      try {
        return Files.readString(f, StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new IllegalArgumentException("cannot read the raw file " + path + " (" + e.getMessage() + ")");
      }
    });
  }

  private Path file(String path) {
    Path file = root.resolve(path).normalize();
    if (!file.startsWith(root)) {
      throw new IllegalArgumentException("a raw file outside the repository: " + path);
    }
    return file;
  }

  /** The history the ages are read from. */
  Git git() {
    return git;
  }
}
