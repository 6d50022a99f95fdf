package io.portshare.kit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What is wrong with the pages' figures, one line each: a page whose figures differ from their raw
 * files, a measured figure typed by hand ({@link ProseFigures}), a raw file a marker names whose
 * header lacks its command, an existing commit or its load ({@link RawHeader}), and a raw file edited
 * by hand that a page quotes without showing so (a {@code FILE ; header ; edited by hand} marker).
 */
public final class FiguresCheck {

  private static final Pattern SOURCE = Pattern.compile("<!--(?:fig|excerpt) (.+?) ; ");
  private static final Pattern CODE = Pattern.compile("`[^`\n]*`");

  private final Figures figures;

  public FiguresCheck(Figures figures) {
    this.figures = figures;
  }

  /** Every problem of every page, stale pages first. */
  public List<String> problems() throws IOException {
    List<String> problems = new ArrayList<>();
    problems.addAll(stalePages());
    problems.addAll(proseFigures());
    problems.addAll(rawHeaders());
    problems.addAll(handEditsNotShown());
    return problems;
  }

  /** The pages whose figures, written again from their raw files, differ from the page. */
  public List<String> stalePages() throws IOException {
    List<String> stale = new ArrayList<>();
    for (Path page : figures.pages()) {
      String text = read(page);
      try {
        if (!figures.render(text).equals(text)) {
          stale.add(name(page) + " differs from its raw files (deploy/bench.sh figures writes it)");
        }
      } catch (IllegalArgumentException e) {
        stale.add(name(page) + ": " + e.getMessage());
      }
    }
    return stale;
  }

  /** The measured figures typed by hand in any page. */
  public List<String> proseFigures() throws IOException {
    List<String> typed = new ArrayList<>();
    for (Path page : figures.pages()) {
      typed.addAll(ProseFigures.in(name(page), read(page)));
    }
    return typed;
  }

  /** What the headers of the raw files the pages' markers name lack. */
  public List<String> rawHeaders() throws IOException {
    List<String> problems = new ArrayList<>();
    for (String raw : rawFiles()) {
      try {
        problems.addAll(RawHeader.of(figures.text(raw)).problems(raw, figures.git()));
      } catch (IllegalArgumentException e) {
        problems.add(e.getMessage());
      }
    }
    return problems;
  }

  /** The raw files edited by hand that a page quotes without a marker showing their "edited by hand:" line. */
  public List<String> handEditsNotShown() throws IOException {
    List<String> problems = new ArrayList<>();
    for (Path page : figures.pages()) {
      String text = read(page);
      for (String raw : sources(text)) {
        boolean edited;
        try {
          edited = RawHeader.of(figures.text(raw)).editedByHand().isPresent();
        } catch (IllegalArgumentException e) {
          continue; // said by rawHeaders()
        }
        if (edited && !text.contains("<!--fig " + raw + " ; header ; edited by hand-->")) {
          problems.add(name(page) + " quotes " + raw + ", edited by hand, without a <!--fig " + raw
              + " ; header ; edited by hand--> marker");
        }
      }
    }
    return problems;
  }

  private Set<String> rawFiles() throws IOException {
    Set<String> raw = new TreeSet<>();
    for (Path page : figures.pages()) {
      raw.addAll(sources(read(page)));
    }
    return raw;
  }

  private static Set<String> sources(String page) {
    Set<String> raw = new TreeSet<>();
    // a marker in a code span is the page speaking of markers, not one
    Matcher m = SOURCE.matcher(CODE.matcher(page).replaceAll(""));
    while (m.find()) {
      raw.add(m.group(1).strip());
    }
    return raw;
  }

  private String name(Path page) {
    return figures.root().relativize(page).toString().replace('\\', '/');
  }

  private static String read(Path page) throws IOException {
    return Files.readString(page, StandardCharsets.UTF_8);
  }
}
