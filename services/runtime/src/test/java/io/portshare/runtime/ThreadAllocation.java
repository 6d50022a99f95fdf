package io.portshare.runtime;

import java.lang.management.ManagementFactory;
import java.util.function.IntConsumer;

/**
 * The bytes the calling thread allocates over {@link #ROUNDS} rounds of some hot-path work, after
 * twice as many rounds of warm-up (so that the JIT has compiled it, and escape analysis done its
 * part), by the thread's own counter (com.sun.management.ThreadMXBean#getThreadAllocatedBytes).
 *
 * <p>The bound tests hold it to is under one byte per round, not zero: an object per round is at
 * least 16 bytes, so any per-round allocation shows as megabytes, while a few hundred bytes once (a
 * compilation finishing mid-measure and the interpreter's switch to it, seen here as 0 to about 800
 * bytes from run to run) are not the work's.
 */
final class ThreadAllocation {

  static final int ROUNDS = 100_000;
  static final String BOUND = "bytes allocated over " + ROUNDS + " rounds (an object per round would be megabytes)";

  private ThreadAllocation() {}

  static long over(IntConsumer round) {
    com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long id = Thread.currentThread().getId();
    for (int i = 0; i < 2 * ROUNDS; i++) {
      round.accept(i);
    }
    threads.getThreadAllocatedBytes(id);
    long before = threads.getThreadAllocatedBytes(id);
    for (int i = 0; i < ROUNDS; i++) {
      round.accept(i);
    }
    return threads.getThreadAllocatedBytes(id) - before;
  }
}
