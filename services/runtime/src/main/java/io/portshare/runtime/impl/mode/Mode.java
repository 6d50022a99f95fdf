package io.portshare.runtime.impl.mode;

import io.micrometer.core.instrument.MeterRegistry;
import io.portshare.runtime.config.ScalingMode;
import io.portshare.runtime.net.Listeners;
import io.vertx.core.Vertx;
import io.vertx.core.transport.Transport;
import java.util.function.Consumer;

/**
 * A scaling mode: how the instances of a service share its port. One class per mode ({@link Shared},
 * {@link Reuseport}, {@link Pinned}), found by name in {@link Modes}; the runtime lays out what the
 * mode says and asks it nothing else. A value: a mode prepared for a start ({@link #prepare}) is a
 * new one.
 */
public interface Mode {

  /** The name {@code --mode}, the banner and {@code portshare_info} give it. */
  ScalingMode name();

  default String label() {
    return name().label();
  }

  /**
   * Event loops in each of the service's Vert.x instances, for {@code instances} in all (a divisor of
   * it); the Vert.x instances are {@code instances / loopsPerVertx}.
   */
  int loopsPerVertx(int instances);

  /** Whether each Vert.x instance binds a socket of its own to a SO_REUSEPORT group; else one socket is shared. */
  boolean reusePort();

  /** The listening sockets it runs for {@code instances}, one per Vert.x instance: what given sockets must number. */
  default int sockets(int instances) {
    return instances / loopsPerVertx(instances);
  }

  /** Whether the Vert.x instances past the first bind one after another, in instance order; else all at once. */
  default boolean bindsInOrder() {
    return false;
  }

  /**
   * This mode as it runs on {@code transport} with {@code instances} on {@code machine}, before
   * anything binds: itself, or what it falls back to, the reason told to {@code fallback} (which
   * prints it as a WARN line).
   */
  default Mode prepare(Transport transport, int instances, Machine machine, Consumer<String> fallback) {
    return this;
  }

  /** Places the new Vert.x whose event loops are numbered from {@code firstLoop} (its threads' CPUs). */
  default void place(Vertx vertx, int firstLoop) {
  }

  /**
   * Steers connections once all {@code instances} listeners are bound on {@code port}: returns the
   * mode that then runs, itself or its fallback (the reason told to {@code fallback}, already printed
   * as a WARN line).
   */
  default Mode steer(Listeners listeners, int port, int instances, MeterRegistry registry, String service,
      Consumer<String> fallback) {
    return this;
  }
}
