package io.portshare.deploy;

import io.portshare.kit.Ci;
import io.portshare.kit.Repository;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** Where the repository and the service jars are, for the tests that run them as a user would. */
final class Jars {

  static final Path ROOT = Repository.root();

  private Jars() {}

  /**
   * The runnable jar of a service module, e.g. {@code rpc-server}. The reactor builds both service
   * modules before this one.
   */
  static Path of(String module) throws IOException, InterruptedException {
    return of(ROOT, module);
  }

  /** The runnable jar of a service module of the repository at {@code root}, checked to start. */
  static Path of(Path root, String module) throws IOException, InterruptedException {
    Path jar = Repository.serviceJar(root, module);
    Process p = new ProcessBuilder("java", "-jar", jar.toString(), "--version").redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes());
    p.waitFor(60, TimeUnit.SECONDS);
    if (p.exitValue() != 0) {
      throw new AssertionError(jar + " --version failed: " + out);
    }
    return jar;
  }

  /** The module whose jar an image runs: {@code registry/portshare-rpc-server:tag} → {@code rpc-server}. */
  static String module(String image) {
    return image.substring(image.lastIndexOf('/') + 1).split(":")[0].replaceFirst("^portshare-", "");
  }

  /** kubectl renders the manifests: without it a local run skips those tests, and CI fails them. */
  static void requireKubectl() {
    Ci.require(hasKubectl(), "kubectl is not installed (.ci/run installs it); the k8s/ manifests are not rendered");
  }

  static boolean hasKubectl() {
    return commandWorks("kubectl", "version", "--client");
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

}
