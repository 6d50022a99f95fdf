package io.portshare.runtime.impl;

import io.portshare.runtime.warmup.StopSignal;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A stop asked for (SIGTERM, Ctrl-C, a supervisor gone), at whatever point of the start it comes:
 * the launcher holds one from its first line, the start looks at it between its steps and the
 * warm-up ends early on it, so a stop while starting or warming up is as clean as one while serving.
 */
public final class StopRequest implements StopSignal {

  private final CountDownLatch asked = new CountDownLatch(1);

  /** Asks for the stop; quick, safe on a signal thread, and the same when asked again. */
  public void request() {
    asked.countDown();
  }

  public boolean requested() {
    return asked.getCount() == 0;
  }

  /** Waits up to {@code millis} for the stop; true once it is asked for. */
  @Override
  public boolean await(long millis) throws InterruptedException {
    return asked.await(millis, TimeUnit.MILLISECONDS);
  }

  /** Waits for the stop however long it takes. */
  public void await() throws InterruptedException {
    asked.await();
  }
}
