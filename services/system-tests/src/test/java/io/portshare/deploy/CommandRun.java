package io.portshare.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A build command a test runs (the wrapper on a generated project, the generator): in a directory,
 * on this JVM's JDK, with no PORTSHARE_* setting of the build's leaking into it; its output is
 * returned, or the test fails with it unless the command exits 0 within its time.
 */
final class CommandRun {

  private CommandRun() {}

  static String inDir(Path dir, Duration timeout, List<String> command) throws Exception {
    ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);
    pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
    pb.environment().keySet().removeIf(k -> k.startsWith("PORTSHARE_"));
    Path log = Files.createTempFile("command", ".log");
    try {
      pb.redirectOutput(log.toFile());
      Process p = pb.start();
      boolean done = p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
      if (!done) {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
        p.waitFor(10, TimeUnit.SECONDS);
      }
      String out = Files.readString(log);
      assertThat(done).as("%s finished within %s:%n%s", String.join(" ", command), timeout, out).isTrue();
      assertThat(p.exitValue()).as("%s:%n%s", String.join(" ", command), out).isZero();
      return out;
    } finally {
      Files.deleteIfExists(log);
    }
  }
}
