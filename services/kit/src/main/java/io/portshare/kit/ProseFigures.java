package io.portshare.kit;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The measured figures a page types by hand: a number with a unit of time, rate, ratio or share
 * ({@code 31 ms}, {@code 4.6 µs}, {@code 30,000 requests/s}, {@code 1.2x}, {@code 12%}) anywhere in
 * its text, tables and prose alike, outside what is not a measurement of ours:
 * <ul>
 *   <li>a figure's marker, {@code <!--fig ...-->1.2x<!--/fig-->}, written from its raw file;
 *   <li>a published figure quoted with its source, {@code <!--published seed 004-->1.52x<!--/published-->};
 *   <li>a code span: a setting, a default, a constant of the code ({@code `--idle-timeout 60s`},
 *       {@code `2 s`}), never a result;
 *   <li>fenced blocks (excerpts of raw files, commands) and other HTML comments.
 * </ul>
 * docs/benchmark.md (section "Figures on the pages") says the same to the pages' writers.
 */
public final class ProseFigures {

  private static final Pattern HIDDEN = Pattern.compile("<!--fig [^>]*-->.*?<!--/fig-->"
      + "|<!--published [^>]+-->.*?<!--/published-->|<!--.*?-->|`[^`]*`|\\]\\([^)]*\\)");
  private static final Pattern MEASURED = Pattern.compile("(?<![\\w.,|])[0-9][0-9,]*(\\.[0-9]+)?\\s?"
      + "(µs|us|ms|s|min|x|×|%|req/s|requests/s|trans/s|transactions/s|connections/s|conn/s|/s|CPU-s/GB|s/GB)"
      + "(?![\\w/])");

  private ProseFigures() {}

  /** One line per figure typed in {@code text}, the page {@code page}: "PAGE:LINE: FIGURE in: LINE'S TEXT". */
  public static List<String> in(String page, String text) {
    List<String> typed = new ArrayList<>();
    boolean fenced = false;
    String[] lines = text.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i];
      if (line.strip().startsWith("```")) {
        fenced = !fenced;
        continue;
      }
      if (fenced) {
        continue;
      }
      // "64B\\|1x" is a table's "64B|1x", a column's name: its 1x follows a "|", not a blank
      Matcher m = MEASURED.matcher(HIDDEN.matcher(line.replace("\\|", "|")).replaceAll(" "));
      while (m.find()) {
        typed.add(page + ":" + (i + 1) + ": \"" + m.group() + "\" typed by hand in: " + abbreviated(line.strip()));
      }
    }
    return typed;
  }

  private static String abbreviated(String line) {
    return line.length() <= 160 ? line : line.substring(0, 157) + "...";
  }
}
