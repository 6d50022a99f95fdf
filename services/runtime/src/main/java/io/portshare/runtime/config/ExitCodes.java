package io.portshare.runtime.config;

import io.portshare.runtime.UsageException;

/**
 * How every portshare process ends (a service, its supervisor, the bench, the soak), named as Vert.x's
 * {@code VertxApplication} names its own: a script or a supervisor tells a bad flag, which no restart
 * mends, from a failure of the machine or the run.
 */
public final class ExitCodes {

  /** A clean stop (drained on SIGTERM or SIGINT), or a run that did what it was asked. */
  public static final int OK = 0;
  /** Anything else: a port taken, descriptors out, a child that died, a run that counted errors. */
  public static final int SOFTWARE = 1;
  /** Bad usage or config ({@link UsageException}): one line names the key, the value and its source. */
  public static final int USAGE = 2;

  private ExitCodes() {}
}
