package io.portshare.bench.staticfiles;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/** The external programs the static benchmark drives: found on PATH (or a usual place), and their versions. */
public final class Tools {

  private Tools() {}

  /** {@code name} on PATH, else the first of {@code usual} that is executable. */
  public static Optional<String> find(String name, String... usual) {
    String path = System.getenv().getOrDefault("PATH", "");
    for (String dir : path.split(File.pathSeparator)) {
      if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, name))) {
        return Optional.of(Path.of(dir, name).toString());
      }
    }
    for (String u : usual) {
      if (Files.isExecutable(Path.of(u))) {
        return Optional.of(u);
      }
    }
    return Optional.empty();
  }

  /** The first line a program prints for its version flag, or "unknown version". */
  public static String version(String binary, String flag) {
    try {
      Process p = new ProcessBuilder(binary, flag).redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      p.waitFor(10, TimeUnit.SECONDS);
      String first = out.lines().findFirst().orElse("").strip();
      return first.isEmpty() ? "unknown version" : first;
    } catch (IOException e) {
      return "unknown version";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "unknown version";
    }
  }
}
