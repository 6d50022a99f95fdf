package io.portshare.runtime.impl.mode;

import io.portshare.runtime.config.ScalingMode;
import java.util.HashMap;
import java.util.Map;

/**
 * Every scaling mode by its name: the three built in, and any registered with {@link #register}
 * before a service starts on it, which also makes its name a value of {@code --mode}.
 */
public final class Modes {

  /** Guarded by itself. */
  private static final Map<ScalingMode, Mode> MODES = new HashMap<>();

  static {
    add(new Shared());
    add(new Reuseport());
    add(new Pinned());
  }

  private Modes() {
  }

  /**
   * Adds {@code mode} under its name and offers the name to {@code --mode}; closing the registration
   * takes both back (a test's mode does not outlive the test).
   */
  public static Registration register(Mode mode) {
    ScalingMode name = mode.name();
    synchronized (MODES) {
      if (MODES.containsKey(name)) {
        throw new IllegalStateException("a scaling mode named " + name.label() + " is registered already");
      }
      add(mode);
    }
    return () -> {
      synchronized (MODES) {
        MODES.remove(name);
        ScalingMode.withdraw(name);
      }
    };
  }

  private static void add(Mode mode) {
    synchronized (MODES) {
      MODES.put(mode.name(), mode);
      ScalingMode.offer(mode.name());
    }
  }

  /** The mode named {@code name}. */
  public static Mode of(ScalingMode name) {
    synchronized (MODES) {
      Mode mode = MODES.get(name);
      if (mode == null) {
        throw new IllegalStateException("no scaling mode registered as " + name.label());
      }
      return mode;
    }
  }

  /** A mode's registration; closing it withdraws the mode. */
  public interface Registration extends AutoCloseable {
    @Override
    void close();
  }
}
