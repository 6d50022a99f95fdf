package io.portshare.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.portshare.kit.Ci;
import io.portshare.kit.Strace;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the kernel saw of StaticFiles on a Router, in a process of its own ({@link RouterVerticle#main})
 * under {@code strace -f -e trace=openat,close,accept,accept4}: a large file (past memoryMax, so sent
 * by sendfile) is opened once, at its lookup, for all its answers, none of which closes it; the
 * verticle's stop() closes it, once. A descriptor's number is reused as soon as it is closed (the
 * answers' own connections take freed numbers), so the file's descriptor is followed from its
 * openat(2) to its close(2) and on until another call is given that number.
 */
class StaticFilesSyscallTest {

  /** {@code 1234 openat(AT_FDCWD, "/x/big.bin", O_RDONLY) = 57}, possibly split in an unfinished and a resumed line. */
  private static final Pattern OPEN = Pattern.compile("^(\\d+)\\s+openat\\(AT_FDCWD, \"(.*?)\".*?(?:= (-?\\d+)|<unfinished \\.\\.\\.>)");
  /** A call that gives a descriptor: openat or accept, whole or resumed, and the number it gave. */
  private static final Pattern GIVES = Pattern.compile(
      "^\\d+\\s+(?:<\\.\\.\\. )?(openat|accept4?)\\b.*= (\\d+)\\b");

  @TempDir
  Path tmp;

  @Test
  void aHitOpensNothingAndStopClosesTheFileOnce() throws Exception {
    Ci.require(System.getProperty("os.name").startsWith("Linux"), "strace is Linux only");
    // strace is a package on any Linux (.ci/run installs it)
    String strace = Strace.unavailable();
    Ci.require(strace == null, "strace cannot run here (" + strace + "): the handler's open(2)s not counted");
    Path root = Files.createDirectories(tmp.toRealPath().resolve("root"));
    byte[] big = new byte[300_000];
    new Random(5).nextBytes(big);
    Path file = Files.write(root.resolve("big.bin"), big);
    Path mark = tmp.toRealPath().resolve("undeployed");
    Path trace = tmp.resolve("trace");

    Process p = new ProcessBuilder("strace", "-f", "--seccomp-bpf", "-e", "trace=openat,close,accept,accept4", "-e",
        "signal=none",
        "-o", trace.toString(), Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
        "-cp", System.getProperty("java.class.path"), RouterVerticle.class.getName(), root.toString(), mark.toString())
        .redirectErrorStream(true).start();
    List<String> output = new ArrayList<>();
    try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      int port = port(out, output);
      assertThat(Wire.get(port, "/big.bin").body()).isEqualTo(big);
      assertThat(Wire.get(port, "/big.bin").body()).isEqualTo(big);
      assertThat(Wire.get(port, "/big.bin", "Range: bytes=1000-1999").body())
          .isEqualTo(Arrays.copyOfRange(big, 1000, 2000));
      p.getOutputStream().close(); // the process undeploys the verticle, marks the trace and exits
      out.lines().forEach(output::add);
      assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("exited; output: %s", output).isTrue();
      assertThat(p.exitValue()).as("exit; output: %s", output).isZero();
    } finally {
      p.destroyForcibly();
    }

    List<String> lines = Files.readAllLines(trace);
    List<Integer> opens = opens(lines, file.toString());
    int end = opens(lines, mark.toString()).get(0);
    assertThat(opens).as("openat(2) of big.bin for three answers; trace:\n%s", String.join("\n", lines)).hasSize(1);
    int open = opens.get(0);
    String fd = descriptor(lines, open);
    String all = String.join("\n", lines);
    int closed = next(lines, open + 1, l -> isClose(l, fd));
    assertThat(closed).as("close(%s) of big.bin before the end of the undeploy; trace:\n%s", fd, all)
        .isBetween(open + 1, end - 1);
    // The second and third answers each came on a connection of their own, accepted while the file stayed open.
    long accepted = lines.subList(open + 1, closed).stream().map(GIVES::matcher)
        .filter(m -> m.find() && m.group(1).startsWith("accept")).count();
    assertThat(accepted).as("connections accepted while big.bin (%s) was open; trace:\n%s", fd, all)
        .isGreaterThanOrEqualTo(2);
    // Closed once: no second close(fd) before a call is given that number again.
    int reused = next(lines, closed + 1, l -> gives(l, fd));
    int again = next(lines, closed + 1, l -> isClose(l, fd));
    assertThat(again == -1 || (reused != -1 && reused < again))
        .as("close(%s) again at line %d, before anything was given %s (line %d); trace:\n%s", fd, again, fd, reused,
            all).isTrue();
  }

  /** The index of the first line from {@code from} that {@code test} accepts, or -1. */
  private static int next(List<String> lines, int from, Predicate<String> test) {
    for (int i = from; i < lines.size(); i++) {
      if (test.test(lines.get(i))) {
        return i;
      }
    }
    return -1;
  }

  private static boolean isClose(String line, String fd) {
    return line.matches("^\\d+\\s+close\\(" + fd + "\\b.*");
  }

  private static boolean gives(String line, String fd) {
    Matcher m = GIVES.matcher(line);
    return m.find() && m.group(2).equals(fd);
  }

  /** Reads the process's output up to its {@code port N} line. */
  private static int port(BufferedReader out, List<String> output) throws IOException {
    String line;
    while ((line = out.readLine()) != null) {
      output.add(line);
      if (line.startsWith("port ")) {
        return Integer.parseInt(line.substring(5).trim());
      }
    }
    throw new IllegalStateException("the traced process ended before it listened: " + output);
  }

  /** The indexes of the lines that open {@code path}. */
  private static List<Integer> opens(List<String> lines, String path) {
    List<Integer> at = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      Matcher m = OPEN.matcher(lines.get(i));
      if (m.find() && m.group(2).equals(path)) {
        at.add(i);
      }
    }
    return at;
  }

  /** The descriptor the openat(2) on line {@code i} returned, from that line or, split, its resumed line. */
  private static String descriptor(List<String> lines, int i) {
    Matcher m = OPEN.matcher(lines.get(i));
    m.find();
    if (m.group(3) != null) {
      return m.group(3);
    }
    Pattern resumed = Pattern.compile("^" + m.group(1) + "\\s+<\\.\\.\\. openat resumed>.*= (-?\\d+)");
    for (String l : lines.subList(i + 1, lines.size())) {
      Matcher r = resumed.matcher(l);
      if (r.find()) {
        return r.group(1);
      }
    }
    throw new IllegalStateException("no result for " + lines.get(i));
  }
}
