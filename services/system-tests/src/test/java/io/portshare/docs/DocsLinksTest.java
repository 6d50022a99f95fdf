package io.portshare.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.portshare.kit.Repository;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The docs point at what exists: every relative link (and its {@code #heading}), every repository
 * path named in backticks ({@code deploy/soak.sh}) and every class named in backticks
 * ({@code ServiceRuntime}, {@code WarmUp.run}) in README.md, docs/*.md, each module's README,
 * k8s/README.md and bench/README.md. A class moved or renamed, a page split, a script removed:
 * the docs that name it fail here, with the page and line.
 */
class DocsLinksTest {

  private static final Path ROOT = Repository.root();

  /** {@code [text](target)}, images too; a target with no scheme is relative. */
  private static final Pattern LINK = Pattern.compile("\\[[^\\]]*\\]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");
  private static final Pattern CODE = Pattern.compile("`([^`]+)`");
  /** A class, alone or with a member: {@code Supervisor}, {@code ServiceDescriptor.warmUp(settings)}. */
  private static final Pattern CLASS = Pattern.compile(
      "([A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)*)(?:[.#][A-Za-z_]\\w*(?:\\(.*\\))?)*");
  private static final Pattern IMPORT = Pattern.compile("^import (?:static )?[\\w.]+?\\.([A-Z]\\w*)(?:\\.\\w+)*;",
      Pattern.MULTILINE);

  /**
   * Capitalised words in backticks that are not classes of ours nor imported by our code: HTTP
   * header names, units, a Kubernetes values kind, classes deep inside Netty that the docs quote from
   * a profile, and what {@code deploy/new-service.sh greeter} writes (NewServiceTest builds it) with
   * the vertx-web handlers it uses.
   */
  private static final Set<String> NOT_OUR_CLASSES = Set.of(
      "Allow", "Host", "Range", "Server",
      "KiB", "MiB", "GiB",
      "ServiceValues",
      "IdleStateHandler", "ServerBootstrapAcceptor",
      "GreeterService", "GreeterRoutes", "GreeterVerticle", "GreeterServiceTest", "StaticHandler", "BodyHandler");

  @Test
  void everyRelativeLinkPointsAtAFileAndItsHeading() throws IOException {
    List<String> problems = new ArrayList<>();
    for (Page page : pages()) {
      page.eachProseLine((n, line) -> {
        Matcher m = LINK.matcher(line);
        while (m.find()) {
          String target = m.group(1);
          if (target.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*")) {
            continue; // https:, mailto:
          }
          String problem = checkLink(page, target);
          if (problem != null) {
            problems.add(page.where(n) + ": link (" + target + ") " + problem);
          }
        }
      });
    }
    assertThat(problems).as("links that point at nothing").isEmpty();
  }

  @Test
  void everyNamedRepositoryPathExists() throws IOException {
    Set<String> top = topLevelNames();
    List<String> problems = new ArrayList<>();
    for (Page page : pages()) {
      page.eachProseLine((n, line) -> {
        Matcher m = CODE.matcher(line);
        while (m.find()) {
          String path = m.group(1);
          if (namesRepositoryPath(path, top) && !exists(page, path)) {
            problems.add(page.where(n) + ": `" + path + "` is no path in the repository");
          }
        }
      });
    }
    assertThat(problems).as("named paths that do not exist").isEmpty();
  }

  @Test
  void everyNamedClassIsOneOfOursOrOneOurCodeImports() throws IOException {
    Set<String> known = javaNames();
    List<String> problems = new ArrayList<>();
    for (Page page : pages()) {
      page.eachProseLine((n, line) -> {
        Matcher m = CODE.matcher(line);
        while (m.find()) {
          Matcher c = CLASS.matcher(m.group(1));
          if (c.matches() && !known.contains(c.group(1)) && !NOT_OUR_CLASSES.contains(c.group(1))) {
            problems.add(page.where(n) + ": `" + m.group(1) + "` names no class in the repository");
          }
        }
      });
    }
    assertThat(problems).as("named classes that match no .java file").isEmpty();
  }

  /** The pages checked: the front door, the docs, every module's README, k8s/ and bench/. */
  static List<Page> pages() throws IOException {
    Set<Path> files = new TreeSet<>();
    files.add(ROOT.resolve("README.md"));
    try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
      docs.filter(p -> p.toString().endsWith(".md")).forEach(files::add);
    }
    try (Stream<Path> poms = Files.walk(ROOT, 3)) {
      poms.filter(p -> p.getFileName().toString().equals("pom.xml"))
          .filter(p -> !p.toString().contains("/target/"))
          .map(p -> p.resolveSibling("README.md"))
          .filter(Files::isRegularFile)
          .forEach(files::add);
    }
    files.add(ROOT.resolve("k8s/README.md"));
    files.add(ROOT.resolve("bench/README.md"));
    List<Page> pages = new ArrayList<>();
    for (Path f : files) {
      pages.add(Page.read(f));
    }
    assertThat(pages).extracting(Page::name).contains("README.md", "docs/modes.md", "services/README.md");
    return pages;
  }

  private static String checkLink(Page page, String target) {
    int hash = target.indexOf('#');
    String file = hash < 0 ? target : target.substring(0, hash);
    String anchor = hash < 0 ? null : target.substring(hash + 1);
    Path resolved = file.isEmpty() ? page.path : page.path.getParent().resolve(file).normalize();
    if (!resolved.startsWith(ROOT)) {
      return "leaves the repository";
    }
    if (!Files.exists(resolved)) {
      return "points at nothing";
    }
    if (anchor != null && resolved.toString().endsWith(".md")) {
      Page linked = resolved.equals(page.path) ? page : Page.read(resolved);
      if (!linked.anchors().contains(anchor)) {
        return "names no heading of " + linked.name() + " (headings: " + linked.anchors() + ")";
      }
    }
    return null;
  }

  /**
   * A repository path: starts with a top-level name and has a slash ({@code deploy/soak.sh},
   * {@code static-server/README.md}). Not checked: placeholders ({@code NAME}, {@code <time>},
   * {@code ...}, {@code *}), spans with spaces (commands), and the generator's example service.
   */
  private static boolean namesRepositoryPath(String span, Set<String> top) {
    int slash = span.indexOf('/');
    return slash > 0 && top.contains(span.substring(0, slash))
        && !span.matches(".*([\\s<>*{}$|]|\\.\\.\\.|NAME).*") && !span.contains("greeter");
  }

  /**
   * From the top, or from the page's own directory (bench/README.md names {@code peers/c-echo/}).
   * Build products count when what builds them is there: a {@code target/} path's module, a C
   * program's source.
   */
  private static boolean exists(Page page, String span) {
    String path = span.endsWith("/") ? span.substring(0, span.length() - 1) : span;
    for (Path base : List.of(ROOT, page.path.getParent())) {
      Path p = base.resolve(path).normalize();
      int target = path.indexOf("/target/");
      if (Files.exists(p) || Files.exists(p.resolveSibling(p.getFileName() + ".c"))
          || (target > 0 && Files.isRegularFile(base.resolve(path.substring(0, target)).resolve("pom.xml")))) {
        return true;
      }
    }
    return false;
  }

  private static Set<String> topLevelNames() throws IOException {
    try (Stream<Path> s = Files.list(ROOT)) {
      return s.map(p -> p.getFileName().toString()).collect(Collectors.toSet());
    }
  }

  /** Every class of ours (a .java file's name) and every class our code imports. */
  private static Set<String> javaNames() throws IOException {
    Set<String> names = new HashSet<>();
    try (Stream<Path> s = Files.walk(ROOT)) {
      for (Path p : (Iterable<Path>) s.filter(p -> p.toString().endsWith(".java"))
          .filter(p -> !p.toString().contains("/target/") && !p.toString().contains("/.git/"))::iterator) {
        names.add(p.getFileName().toString().replaceFirst("\\.java$", ""));
        Matcher m = IMPORT.matcher(Files.readString(p));
        while (m.find()) {
          names.add(m.group(1));
        }
      }
    }
    return names;
  }

  /** One Markdown file: its lines, and which of them are prose (outside ``` fences). */
  record Page(Path path, List<String> lines) {

    static Page read(Path path) {
      try {
        return new Page(path, Files.readAllLines(path));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    String name() {
      return ROOT.relativize(path).toString();
    }

    String where(int line) {
      return name() + ":" + line;
    }

    void eachProseLine(LineCheck check) {
      boolean fenced = false;
      for (int i = 0; i < lines.size(); i++) {
        String line = lines.get(i);
        if (line.stripLeading().startsWith("```")) {
          fenced = !fenced;
        } else if (!fenced) {
          check.line(i + 1, line);
        }
      }
    }

    /** The anchors GitHub makes of the headings: lower case, punctuation dropped, spaces to hyphens. */
    Set<String> anchors() {
      Set<String> anchors = new TreeSet<>();
      Map<String, Integer> seen = new HashMap<>();
      eachProseLine((n, line) -> {
        Matcher h = Pattern.compile("^#{1,6}\\s+(.*?)\\s*#*\\s*$").matcher(line);
        if (h.matches()) {
          String slug = h.group(1).toLowerCase(Locale.ROOT)
              .replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-');
          int count = seen.merge(slug, 1, Integer::sum);
          anchors.add(count == 1 ? slug : slug + "-" + (count - 1));
        }
      });
      return anchors;
    }
  }

  @FunctionalInterface
  interface LineCheck {
    void line(int number, String line);
  }
}
