package io.portshare.runtime.impl.mode;

import io.portshare.runtime.config.ScalingMode;

/**
 * {@code reuseport}, the default: a single-event-loop Vert.x per instance, each with its own socket in
 * one SO_REUSEPORT group; the kernel's reuseport hash balances connections. Runs on every Linux
 * transport and NIO, so it falls back to nothing; {@link Pinned} falls back to it.
 */
public final class Reuseport implements Mode {

  @Override
  public ScalingMode name() {
    return ScalingMode.REUSEPORT;
  }

  @Override
  public int loopsPerVertx(int instances) {
    return 1;
  }

  @Override
  public boolean reusePort() {
    return true;
  }
}
