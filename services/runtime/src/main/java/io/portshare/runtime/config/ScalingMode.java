package io.portshare.runtime.config;

import java.util.Locale;

/** How the instances of a service share its port (see docs/modes.md). */
public enum ScalingMode {
  /** One Vert.x, N event loops, one listening socket; Vert.x's acceptor hands connections round-robin. */
  SHARED,
  /** N single-event-loop Vert.x instances, each with its own SO_REUSEPORT socket; the kernel balances. */
  REUSEPORT,
  /** As REUSEPORT, each event loop pinned to a CPU and connections steered to the listener of that CPU. */
  PINNED;

  public static ScalingMode of(String name) {
    return valueOf(name.toUpperCase(Locale.ROOT));
  }

  /** Whether each instance binds a socket of its own (SO_REUSEPORT). */
  public boolean socketPerInstance() {
    return this != SHARED;
  }

  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
