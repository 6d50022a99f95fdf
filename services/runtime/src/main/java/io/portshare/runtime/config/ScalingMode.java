package io.portshare.runtime.config;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The name of a scaling mode, as {@code --mode}, the banner and {@code portshare_info} spell it. The
 * values {@code --mode} accepts are the names on offer: the three built in, and any a new mode's
 * registration offers. What a mode does is its class in {@code io.portshare.runtime.impl.mode}
 * (docs/modes.md, "Where each mode lives"); this layer only parses the flag.
 */
public final class ScalingMode {

  /** Guarded by itself; in the order they were offered, which is the order help lists them in. */
  private static final Map<String, ScalingMode> OFFERED = new LinkedHashMap<>();

  /** One Vert.x, N event loops, one listening socket; Vert.x's acceptor hands connections round-robin. */
  public static final ScalingMode SHARED = offer(named("shared"));
  /** N single-event-loop Vert.x instances, each with its own SO_REUSEPORT socket; the kernel balances. */
  public static final ScalingMode REUSEPORT = offer(named("reuseport"));
  /** As REUSEPORT, each event loop pinned to a CPU and connections steered to the listener of that CPU. */
  public static final ScalingMode PINNED = offer(named("pinned"));

  private final String label;

  private ScalingMode(String label) {
    this.label = label;
  }

  /** The name {@code label}, not yet a value of {@code --mode}: a new mode names itself so, and registers. */
  public static ScalingMode named(String label) {
    if (!label.matches("[a-z][a-z0-9-]*")) {
      throw new IllegalArgumentException("a mode's name is lower-case letters, digits and '-': \"" + label + "\"");
    }
    return new ScalingMode(label);
  }

  /** Makes {@code mode} a value of {@code --mode} (the mode registry does, as a mode registers); returns it. */
  public static ScalingMode offer(ScalingMode mode) {
    synchronized (OFFERED) {
      OFFERED.put(mode.label, mode);
    }
    return mode;
  }

  /** Takes {@code mode} off {@code --mode}'s values again (a registration closed); the built-in three stay. */
  public static void withdraw(ScalingMode mode) {
    if (mode.equals(SHARED) || mode.equals(REUSEPORT) || mode.equals(PINNED)) {
      throw new IllegalArgumentException("mode " + mode.label + " is built in and stays");
    }
    synchronized (OFFERED) {
      OFFERED.remove(mode.label);
    }
  }

  /** The mode of a {@code --mode} value, which the option's choices ({@link #values}) already checked. */
  public static ScalingMode of(String label) {
    synchronized (OFFERED) {
      ScalingMode mode = OFFERED.get(label);
      if (mode == null) {
        throw new IllegalArgumentException("no scaling mode named \"" + label + "\"; expected one of "
            + String.join("|", OFFERED.keySet()));
      }
      return mode;
    }
  }

  /** Every mode on offer, in the order offered. */
  public static ScalingMode[] values() {
    synchronized (OFFERED) {
      return OFFERED.values().toArray(ScalingMode[]::new);
    }
  }

  public String label() {
    return label;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ScalingMode other && other.label.equals(label);
  }

  @Override
  public int hashCode() {
    return label.hashCode();
  }

  @Override
  public String toString() {
    return label;
  }
}
