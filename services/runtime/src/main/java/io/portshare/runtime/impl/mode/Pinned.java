package io.portshare.runtime.impl.mode;

import io.micrometer.core.instrument.MeterRegistry;
import io.portshare.runtime.config.ScalingMode;
import io.portshare.runtime.net.Listeners;
import io.portshare.runtime.net.PinnedMode;
import io.vertx.core.Vertx;
import io.vertx.core.transport.Transport;
import java.util.function.Consumer;

/**
 * {@code pinned}: {@link Reuseport}'s layout, instance i's event loop pinned to the i-th CPU the
 * process may use and each connection steered to the listener of the CPU that received it
 * ({@link PinnedMode} does both). The listeners bind one after another in CPU order, since the
 * steering program numbers them in bind order. Falls back to {@link Reuseport}, with one WARN line,
 * where its preparation is refused (a transport without Linux socket options, fewer CPUs than
 * instances, no JNA) or, once bound, where a pin or the steering is.
 */
public final class Pinned implements Mode {

  /** The layout prepared for a start, or null: the mode as registered, not yet prepared. */
  private final PinnedMode layout;

  public Pinned() {
    this(null);
  }

  private Pinned(PinnedMode layout) {
    this.layout = layout;
  }

  @Override
  public ScalingMode name() {
    return ScalingMode.PINNED;
  }

  @Override
  public int loopsPerVertx(int instances) {
    return 1;
  }

  @Override
  public boolean reusePort() {
    return true;
  }

  @Override
  public boolean bindsInOrder() {
    return true;
  }

  @Override
  public Mode prepare(Transport transport, int instances, Machine machine, Consumer<String> fallback) {
    try {
      return new Pinned(machine.pinned(transport, instances));
    } catch (RuntimeException | LinkageError e) {
      fallback.accept("mode pinned cannot run here: " + e.getMessage() + "; running as reuseport");
      return Modes.of(ScalingMode.REUSEPORT);
    }
  }

  @Override
  public void place(Vertx vertx, int firstLoop) {
    if (layout != null) {
      layout.pin(vertx, firstLoop);
    }
  }

  @Override
  public Mode steer(Listeners listeners, int port, int instances, MeterRegistry registry, String service,
      Consumer<String> fallback) {
    if (layout == null) {
      return this;
    }
    if (layout.steer(listeners, port, instances)) {
      layout.registerMeters(registry, service);
      return this;
    }
    // PinnedMode printed the WARN line as it unpinned the threads.
    fallback.accept("mode pinned failed (" + layout.failure() + "); running as reuseport");
    return Modes.of(ScalingMode.REUSEPORT);
  }
}
