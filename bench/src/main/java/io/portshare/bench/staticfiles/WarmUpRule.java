package io.portshare.bench.staticfiles;

import java.time.Duration;
import java.util.List;

/**
 * When a path is warm: load it in {@link #STEP} runs for at least {@code least}, until the server's
 * CPU per request of the last {@link #AGREEING} runs agrees within {@link #TOLERANCE} (two alone can
 * agree by chance while the JIT is still at work), and for at most {@code most}.
 * On a busy machine the JIT's compile threads need tens of CPU-seconds, spent inside the server's
 * counters; a fixed wall-clock warm-up is too short there and wastes time on a quiet one.
 */
public record WarmUpRule(Duration least, Duration most) {

  public static final Duration STEP = Duration.ofSeconds(2);
  static final double TOLERANCE = 0.10;
  static final int AGREEING = 3;

  /** Whether to stop, given the server CPU µs/request of each step so far. */
  public boolean done(List<Double> steps) {
    Duration spent = STEP.multipliedBy(steps.size());
    if (spent.compareTo(most) >= 0) {
      return true;
    }
    return spent.compareTo(least) >= 0 && settled(steps);
  }

  /** The last {@link #AGREEING} steps lie within the tolerance of their smallest. */
  public boolean settled(List<Double> steps) {
    if (steps.size() < AGREEING) {
      return false;
    }
    List<Double> last = steps.subList(steps.size() - AGREEING, steps.size());
    double min = last.stream().mapToDouble(Double::doubleValue).min().orElse(0);
    double max = last.stream().mapToDouble(Double::doubleValue).max().orElse(0);
    return min > 0 && (max - min) / min <= TOLERANCE;
  }
}
