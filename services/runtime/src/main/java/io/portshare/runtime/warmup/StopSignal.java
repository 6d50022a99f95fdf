package io.portshare.runtime.warmup;

/** A stop the warm-up waits on between its steps, so that a stop asked for while warming up ends it at once. */
public interface StopSignal {

  /** Waits up to {@code millis} for the stop; true once it is asked for. */
  boolean await(long millis) throws InterruptedException;
}
