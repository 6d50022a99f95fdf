package io.portshare.kit;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

/**
 * Whether strace can trace a process here, for the tests that check system calls as the kernel saw
 * them: installed (a package on any Linux; {@code .ci/run} installs it), and ptrace allowed. Such a
 * test passes what this says to {@link Ci#require}.
 */
public final class Strace {

  private Strace() {}

  /** Null when strace can trace a process here, else why not. */
  public static String unavailable() throws InterruptedException {
    try {
      Process p = new ProcessBuilder("strace", "-f", "-e", "trace=none", "-o", "/dev/null", "true")
          .redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes());
      if (!p.waitFor(30, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return "strace did not finish in 30 s";
      }
      return p.exitValue() == 0 ? null : "strace exit " + p.exitValue() + ": " + out.trim();
    } catch (IOException e) {
      return "strace is not installed (" + e.getMessage() + ")";
    }
  }
}
