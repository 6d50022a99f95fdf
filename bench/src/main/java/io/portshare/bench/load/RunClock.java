package io.portshare.bench.load;

/**
 * The time line of a run in {@link System#nanoTime()} terms: warm-up from {@code start}, figures
 * from {@code measureStart} to {@code measureEnd}, nothing after. Immutable, so every event loop
 * reads it without synchronisation.
 */
public final class RunClock {

  public final long start;
  public final long measureStart;
  public final long measureEnd;

  public RunClock(long start, long warmupNanos, long durationNanos) {
    this.start = start;
    this.measureStart = start + warmupNanos;
    this.measureEnd = measureStart + durationNanos;
  }

  public boolean measuring(long now) {
    return now >= measureStart && now < measureEnd;
  }

  public boolean over(long now) {
    return now >= measureEnd;
  }

  public double measuredSeconds() {
    return (measureEnd - measureStart) / 1e9;
  }
}
