package io.portshare.runtime.impl.mode;

import io.portshare.runtime.config.ScalingMode;

/**
 * An example of a new mode, whole: each Vert.x instance runs two event loops on a socket of its own,
 * which Vert.x's acceptor shares between them, and the Vert.x instances are one SO_REUSEPORT group.
 * An odd {@code --instances} runs a loop per Vert.x, as reuseport.
 */
final class PairsMode implements Mode {

  static final ScalingMode NAME = ScalingMode.named("pairs");

  @Override
  public ScalingMode name() {
    return NAME;
  }

  @Override
  public int loopsPerVertx(int instances) {
    return instances % 2 == 0 ? 2 : 1;
  }

  @Override
  public boolean reusePort() {
    return true;
  }
}
