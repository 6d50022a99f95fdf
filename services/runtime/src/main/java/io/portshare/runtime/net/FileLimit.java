package io.portshare.runtime.net;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The process's open-files limit, as the kernel states it in /proc/self/limits. */
public final class FileLimit {

  /**
   * Read when the class is first used, at start: at the limit itself /proc/self/limits cannot be
   * opened, which is exactly when the limit must be named.
   */
  private static final String[] AT_START = readNow();

  private FileLimit() {}

  /** {soft, hard} as the kernel prints them ("unlimited" possible), or null where unknown. */
  public static String[] read() {
    String[] now = readNow();
    return now != null ? now : AT_START;
  }

  private static String[] readNow() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/limits"))) {
        if (line.startsWith("Max open files")) {
          String[] f = line.substring("Max open files".length()).trim().split("\\s+");
          return new String[] {f[0], f[1]};
        }
      }
    } catch (IOException | RuntimeException e) {
      // Not Linux, or no descriptor left to read it with.
    }
    return null;
  }

  /**
   * Whether {@code more} descriptors fit under the soft limit beside those open now; true where
   * either is unknown. Counting needs a descriptor of its own, so at the limit this says false.
   */
  public static boolean fits(int more) {
    String[] l = read();
    if (l == null || l[0].equals("unlimited")) {
      return true;
    }
    long open;
    try (java.util.stream.Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
      open = fds.count();
    } catch (IOException e) {
      return !String.valueOf(e.getMessage()).contains("Too many open files");
    } catch (RuntimeException e) {
      return true;
    }
    return open + more <= Long.parseLong(l[0]);
  }

  public static String describe() {
    String[] l = read();
    return l == null ? "unknown" : l[0];
  }
}
