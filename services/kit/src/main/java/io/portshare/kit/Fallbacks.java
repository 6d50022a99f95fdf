package io.portshare.kit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import java.util.TreeSet;

/**
 * What a test ran on when the machine refused what it was written for: the io_uring classes pass on
 * epoll where the kernel refuses io_uring, and a pass alone would hide that io_uring went untested.
 * Each such run leaves a line in {@code target/transport-fallbacks/} of its module (Surefire and
 * Failsafe run tests in the module's directory), which CI's skip table lists beside the skips
 * ({@link SkippedTests}).
 */
public final class Fallbacks {

  /** The directory, under a module's {@code target}, that holds the lines. */
  static final String DIRECTORY = "transport-fallbacks";

  private Fallbacks() {}

  /**
   * Records that the test class calling (the nearest caller whose name ends in {@code Test}) ran on
   * a fallback, e.g. {@code "ran on epoll: io_uring refused (the cause)"}.
   */
  public static void record(String what) {
    String test = callingTest().orElse("(a test outside a *Test class)");
    Path file = Path.of("target", DIRECTORY, test + ".txt");
    try {
      Files.createDirectories(file.getParent());
      Files.writeString(file, what.replace('\n', ' ') + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE,
          StandardOpenOption.APPEND);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot record a fallback run in " + file, e);
    }
  }

  private static Optional<String> callingTest() {
    return StackWalker.getInstance().walk(frames -> frames.map(StackWalker.StackFrame::getClassName)
        .map(c -> c.contains("$") ? c.substring(0, c.indexOf('$')) : c)
        .filter(c -> c.endsWith("Test")).findFirst());
  }

  /** The fallback runs a file recorded: its test class (the file's name) and each distinct line. */
  static TreeSet<String> read(Path file) throws IOException {
    String test = file.getFileName().toString().replaceFirst("\\.txt$", "");
    TreeSet<String> runs = new TreeSet<>();
    for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
      if (!line.isBlank()) {
        runs.add(test + " | " + line.strip());
      }
    }
    return runs;
  }
}
