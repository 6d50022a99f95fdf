package io.portshare.kit;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.BiPredicate;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * CI's check that no test passed by being skipped: reads every Surefire and Failsafe report of a
 * build, prints each skipped test with its reason, and fails unless every skip is listed in the
 * expected-skips file with the condition that justifies it.
 *
 * <pre>java -cp services/kit/target/classes io.portshare.kit.SkippedTests . .ci/expected-skips</pre>
 *
 * <p>A line of that file is {@code test | reason | condition}: the test class, or
 * {@code Class#method}; text its skip message contains; and why a CI machine may lack what it needs.
 * Exit status 0 when every skip is expected, 1 when one is not or no report was found, 2 when the
 * arguments or the file are wrong.
 */
public final class SkippedTests {

  /** A skipped test: {@code Class#method(...)} (or the class alone, skipped as a whole) and its reason. */
  record Skip(String test, String reason) {

    String testClass() {
      int hash = test.indexOf('#');
      return hash < 0 ? test : test.substring(0, hash);
    }

    /** The method's name without parameters or a parameterized case's index. */
    Optional<String> method() {
      int hash = test.indexOf('#');
      if (hash < 0) {
        return Optional.empty();
      }
      String m = test.substring(hash + 1);
      int end = m.length();
      for (char c : new char[] {'(', '['}) {
        int i = m.indexOf(c);
        if (i >= 0 && i < end) {
          end = i;
        }
      }
      return Optional.of(m.substring(0, end));
    }
  }

  /** A line of the expected-skips file. */
  record Expected(String test, String reason, String condition) {

    boolean matches(Skip s) {
      int hash = test.indexOf('#');
      boolean sameTest = hash < 0
          ? s.testClass().equals(test)
          : s.testClass().equals(test.substring(0, hash)) && s.method().orElse("").equals(test.substring(hash + 1));
      return sameTest && s.reason().contains(reason);
    }
  }

  private SkippedTests() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 2) {
      System.err.println("usage: SkippedTests REPOSITORY_DIR EXPECTED_SKIPS_FILE");
      System.exit(2);
    }
    List<Expected> expected;
    try {
      expected = parseExpected(Files.readAllLines(Path.of(args[1])));
    } catch (IllegalArgumentException | IOException e) {
      System.err.println("skipped tests: " + args[1] + ": " + e.getMessage());
      System.exit(2);
      return;
    }
    List<Path> reports = reports(Path.of(args[0]));
    int status = check(reports, expected, System.out);
    printFallbacks(fallbacks(Path.of(args[0])), System.out);
    System.exit(status);
  }

  /**
   * The runs that passed on a fallback (io_uring refused, epoll ran): not failures, for the fallback
   * is what such a machine runs, but listed, so that a machine that never tests io_uring is seen.
   */
  static void printFallbacks(List<String> runs, PrintStream out) {
    out.printf("tests run on a fallback: %d%n", runs.size());
    for (String run : runs) {
      out.println("  " + run);
    }
  }

  /** Every line under a module's {@code target/transport-fallbacks/}, as {@code TestClass | what ran}. */
  static List<String> fallbacks(Path root) throws IOException {
    TreeSet<String> runs = new TreeSet<>();
    for (Path file : found(root, Fallbacks.DIRECTORY, (name, dir) -> name.endsWith(".txt")
        && dir.getFileName().toString().equals(Fallbacks.DIRECTORY))) {
      runs.addAll(Fallbacks.read(file));
    }
    return List.copyOf(runs);
  }

  /** Prints the table; returns 0 when every skip is expected and there were reports, else 1. */
  static int check(List<Path> reports, List<Expected> expected, PrintStream out) throws Exception {
    if (reports.isEmpty()) {
      out.println("skipped tests: no Surefire or Failsafe report found; did the tests run?");
      return 1;
    }
    List<Skip> skips = new ArrayList<>();
    for (Path r : reports) {
      skips.addAll(read(r));
    }
    int unexpected = 0;
    List<String[]> rows = new ArrayList<>();
    for (Skip s : skips) {
      Optional<Expected> why = expected.stream().filter(e -> e.matches(s)).findFirst();
      if (why.isEmpty()) {
        unexpected++;
      }
      rows.add(new String[] {why.isPresent() ? "expected" : "UNEXPECTED", s.test(), s.reason(),
          why.map(Expected::condition).orElse("not listed in the expected skips")});
    }
    out.printf("skipped tests: %d in %d reports, %d unexpected%n", skips.size(), reports.size(), unexpected);
    if (!rows.isEmpty()) {
      int w0 = "UNEXPECTED".length();
      int w1 = rows.stream().mapToInt(r -> r[1].length()).max().orElse(4);
      out.printf("  %-" + w0 + "s  %-" + w1 + "s  %s%n", "verdict", "test", "reason / condition");
      for (String[] r : rows) {
        out.printf("  %-" + w0 + "s  %-" + w1 + "s  %s%n", r[0], r[1], r[2]);
        out.printf("  %-" + w0 + "s  %-" + w1 + "s    (%s)%n", "", "", r[3]);
      }
    }
    if (unexpected > 0) {
      out.println("skipped tests: a test that cannot run in CI must fail, or its skip be listed with the condition"
          + " that justifies it in the expected-skips file");
    }
    return unexpected == 0 ? 0 : 1;
  }

  private static boolean isReports(Path dir) {
    String name = dir.getFileName() == null ? "" : dir.getFileName().toString();
    return name.equals("surefire-reports") || name.equals("failsafe-reports");
  }

  /**
   * Every {@code target/surefire-reports/TEST-*.xml} and {@code target/failsafe-reports/TEST-*.xml}
   * under {@code root}, and those of a second run in a directory inside them.
   */
  static List<Path> reports(Path root) throws IOException {
    // A second run of a suite (on --channel netty, say) writes into a directory of its own inside.
    return found(root, null, (name, dir) -> name.startsWith("TEST-") && name.endsWith(".xml")
        && (isReports(dir) || dir.getParent() != null && isReports(dir.getParent())));
  }

  /**
   * The files under {@code root} that {@code wanted} takes, looking inside a {@code target} directory
   * only into its report directories and into {@code alsoInTarget}; never into {@code .git}.
   */
  private static List<Path> found(Path root, String alsoInTarget,
      BiPredicate<String, Path> wanted) throws IOException {
    List<Path> found = new ArrayList<>();
    Files.walkFileTree(root, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
        String name = dir.getFileName() == null ? "" : dir.getFileName().toString();
        Path parent = dir.getParent();
        boolean inTarget = parent != null && parent.getFileName() != null && parent.getFileName().toString().equals("target");
        if (!dir.equals(root) && (name.equals(".git") || name.equals("node_modules") || inTarget
            && !(name.equals("surefire-reports") || name.equals("failsafe-reports") || name.equals(alsoInTarget)))) {
          return FileVisitResult.SKIP_SUBTREE;
        }
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
        if (wanted.test(file.getFileName().toString(), file.getParent())) {
          found.add(file);
        }
        return FileVisitResult.CONTINUE;
      }
    });
    found.sort(null);
    return found;
  }

  /**
   * The skipped tests of one report. Surefire writes a skip's reason as the exception's text and
   * stack (a message attribute in some versions); the reason is its first line, without the
   * exception's class. A class skipped before any of its tests ran (an assumption in
   * {@code @BeforeAll}) leaves a report without test cases and without counts: that is a skip of
   * the whole class, whose reason Surefire does not keep.
   */
  static List<Skip> read(Path report) throws Exception {
    DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
    f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
    f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
    DocumentBuilder b = f.newDocumentBuilder();
    Document doc = b.parse(report.toFile());
    List<Skip> skips = new ArrayList<>();
    NodeList suites = doc.getElementsByTagName("testsuite");
    for (int i = 0; i < suites.getLength(); i++) {
      Element suite = (Element) suites.item(i);
      NodeList cases = suite.getElementsByTagName("testcase");
      if (cases.getLength() == 0) {
        skips.add(new Skip(suite.getAttribute("name"), NOTHING_RAN));
      }
      for (int j = 0; j < cases.getLength(); j++) {
        Element c = (Element) cases.item(j);
        NodeList skipped = c.getElementsByTagName("skipped");
        if (skipped.getLength() == 0) {
          continue;
        }
        Element s = (Element) skipped.item(0);
        String reason = reason(s.hasAttribute("message") ? s.getAttribute("message") : s.getTextContent());
        String cls = c.getAttribute("classname").isEmpty() ? suite.getAttribute("name") : c.getAttribute("classname");
        String name = c.getAttribute("name");
        skips.add(new Skip(name.isEmpty() || name.equals(cls) ? cls : cls + "#" + name, reason));
      }
    }
    return skips;
  }

  static final String NOTHING_RAN = "no test of the class ran: skipped as a whole before its tests"
      + " (an assumption in @BeforeAll, whose reason the report does not keep)";

  /** {@code org.opentest4j.TestAbortedException: Assumption failed: needs X\n\tat ...} → {@code needs X}. */
  static String reason(String text) {
    StringBuilder message = new StringBuilder();
    for (String line : (text == null ? "" : text).strip().split("\n")) {
      if (line.strip().startsWith("at ")) {
        break;
      }
      message.append(' ').append(line.strip());
    }
    String r = message.toString().strip()
        .replaceFirst("^[\\w.$]+(Exception|Error):\\s*", "")
        .replaceFirst("^Assumption failed:\\s*", "")
        .replaceAll("\\s+", " ");
    return r.isEmpty() ? "(no reason given)" : r;
  }

  static List<Expected> parseExpected(List<String> lines) {
    List<Expected> expected = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i).strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      String[] f = line.split("\\s*\\|\\s*", -1);
      if (f.length != 3 || f[0].isBlank() || f[1].isBlank() || f[2].isBlank()) {
        throw new IllegalArgumentException("line " + (i + 1) + " is not 'test | reason | condition': " + line);
      }
      expected.add(new Expected(f[0], f[1], f[2]));
    }
    return expected;
  }

}
