package io.portshare.bench.load;

import io.portshare.bench.cpu.CpuSpent;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;

/**
 * Figures of the connections on one event loop. Written only by that loop (plain fields, no
 * contention); read once the loop has stopped. {@code progress} is shared by all loops and is the
 * only thing read live, by the progress bar.
 */
final class LoopStats {

  final RunClock clock;
  final Histogram latency = LatencySummary.newHistogram();
  final long[] errors = new long[ErrorKind.values().length];
  final LongAdder progress;
  long transactions;

  LoopStats(RunClock clock, LongAdder progress) {
    this.clock = clock;
    this.progress = progress;
  }

  /** One transaction done at {@code now} that took {@code nanos}; counts only inside the window. */
  void completed(long nanos, long now) {
    if (clock.measuring(now)) {
      transactions++;
      LatencySummary.record(latency, nanos);
      progress.increment();
    }
  }

  /** One open-loop transaction due in the window, done whenever, that took {@code nanos} from its due time. */
  void completedInWindow(long nanos) {
    transactions++;
    LatencySummary.record(latency, nanos);
    progress.increment();
  }

  /** Open-loop requests due in the window and never answered. */
  void unanswered(long n) {
    errors[ErrorKind.UNANSWERED.ordinal()] += n;
  }

  void error(ErrorKind kind, long now) {
    if (!clock.over(now)) {
      errors[kind.ordinal()]++;
    }
  }

  /** The loops' figures together, as one measurement over the window {@code cpu} was read for. */
  static Measurement merge(Iterable<LoopStats> loops, CpuSpent cpu) {
    return merge(loops, cpu, LatencySummary.newHistogram());
  }

  /** As {@link #merge(Iterable, CpuSpent)}, adding every latency into {@code all}. */
  static Measurement merge(Iterable<LoopStats> loops, CpuSpent cpu, Histogram all) {
    long tx = 0;
    Map<String, Long> errors = new LinkedHashMap<>();
    for (LoopStats s : loops) {
      tx += s.transactions;
      all.add(s.latency);
      for (ErrorKind k : ErrorKind.values()) {
        long n = s.errors[k.ordinal()];
        if (n > 0) {
          errors.merge(k.label(), n, Long::sum);
        }
      }
    }
    return new Measurement(tx, cpu.wallSeconds(), LatencySummary.of(all), errors, cpu);
  }
}
