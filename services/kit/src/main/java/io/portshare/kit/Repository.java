package io.portshare.kit;

import java.nio.file.Files;
import java.nio.file.Path;

/** Where the repository is, and the runnable jar each module builds there. */
public final class Repository {

  private Repository() {}

  /** The repository's top: the nearest directory at or above the working directory with {@code k8s/overlays}. */
  public static Path root() {
    Path start = Path.of("").toAbsolutePath();
    for (Path p = start; p != null; p = p.getParent()) {
      if (Files.isDirectory(p.resolve("k8s/overlays")) && Files.isRegularFile(p.resolve("pom.xml"))) {
        return p;
      }
    }
    throw new IllegalStateException("not inside the portshare repository: no k8s/overlays above " + start);
  }

  /**
   * The fat jar of a service module, e.g. {@code rpc-server} → {@code rpc-server/target/portshare-rpc-server.jar}.
   * The reactor packages the services before anything that runs them; a missing jar is an error, not a skip.
   */
  public static Path serviceJar(String module) {
    return serviceJar(root(), module);
  }

  /** The fat jar of a service module in the repository at {@code root} (e.g. a copy with a generated service). */
  public static Path serviceJar(Path root, String module) {
    Path jar = root.resolve(module).resolve("target").resolve("portshare-" + module + ".jar");
    if (!Files.isRegularFile(jar)) {
      throw new IllegalStateException(jar + " is not built: run ./mvnw -B package from the top of the repository");
    }
    return jar;
  }
}
