package io.portshare.bench.latency;

import java.util.List;

/**
 * A JVM server's stop-the-world GC pauses during one measured window: how many, their total and
 * the longest, in milliseconds. {@link #NONE} stands for a cell whose server has no GC log (a peer,
 * or a JVM row of a run without {@code --jvm}).
 */
public record GcPauses(int count, double totalMs, double maxMs) {

  public static final GcPauses NONE = new GcPauses(-1, Double.NaN, Double.NaN);

  /** One pause as the log states it: when it ended (the line's wall-clock time) and how long it took. */
  public record Pause(long endMillis, double ms) {}

  public boolean known() {
    return count >= 0;
  }

  /**
   * The pauses that ended in {@code [fromMillis, toMillis)}: a pause is logged when it ends, so one
   * under way at the window's start counts in it, one under way at its end in the next.
   */
  public static GcPauses within(List<Pause> pauses, long fromMillis, long toMillis) {
    int count = 0;
    double total = 0;
    double max = 0;
    for (Pause p : pauses) {
      if (p.endMillis() >= fromMillis && p.endMillis() < toMillis) {
        count++;
        total += p.ms();
        max = Math.max(max, p.ms());
      }
    }
    return new GcPauses(count, total, max);
  }
}
