package io.portshare.bench.seeds;

import io.portshare.bench.staticfiles.Tools;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** The seeds' checks of their settings and tools before anything starts: each refusal names the option or tool. */
final class PlanChecks {

  private PlanChecks() {}

  /** The tool's path when one of {@code seeds} is chosen and needs it; null when none is. */
  static String needs(List<String> chosen, List<String> seeds, String tool, String how) {
    if (chosen.stream().noneMatch(seeds::contains)) {
      return null;
    }
    return Tools.find(tool).orElseThrow(() -> new IllegalArgumentException(tool + " not found on PATH (seeds "
        + String.join(", ", seeds.stream().filter(chosen::contains).toList()) + " need it); " + how));
  }

  static void requireFile(String flag, Path p, String how) {
    if (!Files.isRegularFile(p)) {
      throw new IllegalArgumentException("invalid value for " + flag + ": no file at " + p + "; " + how);
    }
  }

  static void positive(String flag, int v) {
    if (v < 1) {
      throw new IllegalArgumentException("invalid value for " + flag + ": " + v + "; expected at least 1");
    }
  }
}
