package io.portshare.deploy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/** Where the repository and the service jars are, for the tests that run them as a user would. */
final class Jars {

  static final Path ROOT = repoRoot();

  private Jars() {}

  /**
   * The runnable jar of a service module, e.g. {@code rpc-server}. The reactor builds both service
   * modules before this one; a build of this module alone skips (with this reason) until they exist.
   */
  static Path of(String module) throws IOException, InterruptedException {
    Path jar = ROOT.resolve(module).resolve("target").resolve("portshare-" + module + ".jar");
    Assumptions.assumeTrue(Files.isRegularFile(jar),
        jar + " is not built yet: run ./mvnw -B package (or verify) from the top of the repository");
    Process p = new ProcessBuilder("java", "-jar", jar.toString(), "--version").redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes());
    p.waitFor(60, TimeUnit.SECONDS);
    if (p.exitValue() != 0) {
      throw new AssertionError(jar + " --version failed: " + out);
    }
    return jar;
  }

  static boolean commandWorks(String... command) {
    try {
      return new ProcessBuilder(command).redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private static Path repoRoot() {
    Path p = Path.of("").toAbsolutePath();
    while (p != null && !Files.isDirectory(p.resolve("k8s/overlays"))) {
      p = p.getParent();
    }
    if (p == null) {
      throw new IllegalStateException("no k8s/overlays above " + Path.of("").toAbsolutePath());
    }
    return p;
  }
}
