package io.portshare.bench.load;

import java.io.PrintStream;
import java.util.concurrent.atomic.LongAdder;

/**
 * A progress bar with live trans/s on a terminal, for runs longer than a few seconds; nothing at
 * all when the output is not a terminal (CI logs, pipes).
 */
public final class Progress {

  private static final long MIN_RUN_NANOS = 3_000_000_000L;
  private static final int WIDTH = 30;

  private final PrintStream out;
  private final boolean enabled;
  private volatile String label = "";

  private Progress(PrintStream out, boolean enabled) {
    this.out = out;
    this.enabled = enabled;
  }

  /** Draws on stderr when this process runs on a terminal. */
  public static Progress onTerminal() {
    return new Progress(System.err, System.console() != null);
  }

  public static Progress none() {
    return new Progress(System.err, false);
  }

  public Progress label(String label) {
    this.label = label;
    return this;
  }

  /** A running bar; close it when the run ends. */
  public interface Bar extends AutoCloseable {
    @Override
    void close();
  }

  Bar start(RunClock clock, LongAdder done) {
    if (!enabled || clock.measureEnd - clock.start < MIN_RUN_NANOS) {
      return () -> { };
    }
    Thread t = new Thread(() -> draw(clock, done), "bench-progress");
    t.setDaemon(true);
    t.start();
    return () -> {
      t.interrupt();
      try {
        t.join(1000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      out.print("\r\033[K");
      out.flush();
    };
  }

  private void draw(RunClock clock, LongAdder done) {
    long lastCount = 0;
    long lastTime = System.nanoTime();
    double rate = 0;
    while (!Thread.currentThread().isInterrupted()) {
      try {
        Thread.sleep(250);
      } catch (InterruptedException e) {
        return;
      }
      long now = System.nanoTime();
      long count = done.sum();
      if (now > lastTime) {
        rate = (count - lastCount) * 1e9 / (now - lastTime);
      }
      lastCount = count;
      lastTime = now;
      double f = Math.min(1, Math.max(0, (double) (now - clock.start) / (clock.measureEnd - clock.start)));
      int filled = (int) Math.round(f * WIDTH);
      String phase = now < clock.measureStart ? "warm-up" : String.format("%,.0f trans/s", rate);
      out.print("\r\033[K" + label + " [" + "#".repeat(filled) + ".".repeat(WIDTH - filled) + "] "
          + String.format("%3.0f%% ", f * 100) + phase);
      out.flush();
    }
  }
}
