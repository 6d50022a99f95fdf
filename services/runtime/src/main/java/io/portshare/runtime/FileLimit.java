package io.portshare.runtime;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The process's open-files limit, as the kernel states it in /proc/self/limits. */
final class FileLimit {

  private FileLimit() {}

  /** {soft, hard} as the kernel prints them ("unlimited" possible), or null where unknown. */
  static String[] read() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/limits"))) {
        if (line.startsWith("Max open files")) {
          String[] f = line.substring("Max open files".length()).trim().split("\\s+");
          return new String[] {f[0], f[1]};
        }
      }
    } catch (IOException | RuntimeException e) {
      // Not Linux.
    }
    return null;
  }

  static String describe() {
    String[] l = read();
    return l == null ? "unknown" : l[0];
  }
}
