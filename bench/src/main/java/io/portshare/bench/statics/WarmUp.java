package io.portshare.bench.statics;

import java.time.Duration;
import java.util.List;

/**
 * When a path is warm: load it in {@link #STEP} runs for at least {@code least}, until the server's
 * CPU per request of two runs in a row agrees within {@link #TOLERANCE}, and for at most {@code most}.
 * On a busy machine the JIT's compile threads need tens of CPU-seconds, spent inside the server's
 * counters; a fixed wall-clock warm-up is too short there and wastes time on a quiet one.
 */
public record WarmUp(Duration least, Duration most) {

  public static final Duration STEP = Duration.ofSeconds(2);
  static final double TOLERANCE = 0.10;

  /** Whether to stop, given the server CPU µs/request of each step so far. */
  public boolean done(List<Double> steps) {
    Duration spent = STEP.multipliedBy(steps.size());
    if (spent.compareTo(most) >= 0) {
      return true;
    }
    return spent.compareTo(least) >= 0 && settled(steps);
  }

  /** The last two steps agree within the tolerance. */
  public boolean settled(List<Double> steps) {
    if (steps.size() < 2) {
      return false;
    }
    double prev = steps.get(steps.size() - 2);
    double last = steps.get(steps.size() - 1);
    return prev > 0 && Math.abs(last - prev) / prev <= TOLERANCE;
  }
}
