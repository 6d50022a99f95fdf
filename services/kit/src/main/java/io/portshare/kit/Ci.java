package io.portshare.kit;

import org.junit.jupiter.api.Assumptions;

/**
 * Whether this run is CI, and the one rule for a test that needs a tool or a kernel feature: where
 * it is missing the test is skipped, saying so, on a developer's machine, and fails in CI, where
 * {@code .ci/run} installs everything the tests need.
 */
public final class Ci {

  private Ci() {}

  /** {@code CI} set to anything but empty, {@code false} or {@code 0} (CI services set it to {@code true}). */
  public static boolean active() {
    return active(System.getenv("CI"));
  }

  static boolean active(String value) {
    if (value == null) {
      return false;
    }
    String v = value.strip();
    return !v.isEmpty() && !v.equalsIgnoreCase("false") && !v.equals("0");
  }

  /**
   * Returns when {@code present}; otherwise fails the test in CI and skips it elsewhere, with
   * {@code missing} (what is missing, and what installs it) as the message either way.
   */
  public static void require(boolean present, String missing) {
    if (present) {
      return;
    }
    if (active()) {
      throw new AssertionError("CI=" + System.getenv("CI") + " and this test must run there, but " + missing);
    }
    Assumptions.abort(missing);
  }
}
