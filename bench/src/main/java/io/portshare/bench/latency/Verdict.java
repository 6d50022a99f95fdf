package io.portshare.bench.latency;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Whether a latency cell's figures are the server's: a cell is FLAGGED when the rate it reached is
 * below {@link #RATE_SHARE} of the rate asked (someone could not keep the schedule: past the floor's
 * maximum that is the server, the point of the ladder; below it, read the other reasons), when the
 * generator kept {@link #BUSY_SHARE} or more of its cores busy (then it, not the server, may hold the
 * rate or the tail), or when the rate asked is above what the generator itself reached against the
 * fastest server (its own floor).
 */
public record Verdict(long asked, double reached, double clientUtilisation, double generatorFloor) {

  public static final double RATE_SHARE = 0.99;
  public static final double BUSY_SHARE = 0.9;

  public boolean shortOfRate() {
    return reached < asked * RATE_SHARE;
  }

  public boolean clientBusy() {
    return !Double.isNaN(clientUtilisation) && clientUtilisation >= BUSY_SHARE;
  }

  public boolean beyondGenerator() {
    return !Double.isNaN(generatorFloor) && generatorFloor > 0 && asked > generatorFloor;
  }

  public boolean flagged() {
    return shortOfRate() || clientBusy() || beyondGenerator();
  }

  /** The reasons, e.g. "rate 93.1%, client CPU 96%"; empty when the cell is clean. */
  public String reasons() {
    List<String> r = new ArrayList<>();
    if (shortOfRate()) {
      r.add(String.format(Locale.ROOT, "rate %.1f%%", asked == 0 ? 0 : 100.0 * reached / asked));
    }
    if (clientBusy()) {
      r.add(String.format(Locale.ROOT, "client CPU %.0f%%", 100 * clientUtilisation));
    }
    if (beyondGenerator()) {
      r.add("above generator floor");
    }
    return String.join(", ", r);
  }
}
