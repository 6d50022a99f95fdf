package io.portshare.runtime.impl;

import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpConnection;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * {@code --max-connection-age} for the HTTP connections of a Vert.x server the runtime listens
 * with: past its lifetime a connection is shut down gracefully ({@link HttpConnection#shutdown}),
 * closed at once when no request is in flight, after the answer otherwise, within the drain timeout.
 * A timer per connection, and only when an age is set: a connection that closes first cancels it.
 */
final class ConnectionPolicy {

  private final Supplier<Duration> lifetime;
  private final Duration grace;
  private final boolean agesOut;

  ConnectionPolicy(Supplier<Duration> lifetime, Duration grace) {
    this.lifetime = lifetime;
    this.grace = grace;
    this.agesOut = !lifetime.get().isZero();
  }

  boolean agesOut() {
    return agesOut;
  }

  /** Called on the connection's event loop when it is made. */
  void born(HttpConnection connection) {
    if (!agesOut) {
      return;
    }
    Context loop = Vertx.currentContext();
    Vertx vertx = loop.owner();
    long timer = vertx.setTimer(Math.max(1, lifetime.get().toMillis()),
        id -> connection.shutdown(grace.toMillis(), TimeUnit.MILLISECONDS));
    connection.closeHandler(v -> vertx.cancelTimer(timer));
  }
}
