package io.portshare.runtime.impl.mode;

import io.portshare.runtime.config.ScalingMode;

/**
 * {@code shared}: stock Vert.x. One Vert.x with an event loop per instance, one listening socket
 * its verticles share; Vert.x's acceptor thread hands connections to the loops round-robin. Runs
 * everywhere, so it falls back to nothing.
 */
public final class Shared implements Mode {

  @Override
  public ScalingMode name() {
    return ScalingMode.SHARED;
  }

  @Override
  public int loopsPerVertx(int instances) {
    return instances;
  }

  @Override
  public boolean reusePort() {
    return false;
  }
}
