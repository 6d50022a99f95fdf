package io.portshare.runtime;

/**
 * The user event the runtime fires, on its event loop, through the pipeline of every open
 * connection of a listener with its own pipeline when the service drains
 * ({@link ServiceContext#listen(io.vertx.core.net.NetServerOptions, ConnectionInitializer)}): a
 * handler finishes what it has in flight and closes the connection, an idle one at once. What is
 * still open when {@code --drain-timeout} has passed, the runtime closes.
 */
public final class DrainEvent {

  public static final DrainEvent INSTANCE = new DrainEvent();

  private DrainEvent() {}

  @Override
  public String toString() {
    return "DrainEvent";
  }
}
