package io.portshare.runtime;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import java.time.Duration;

/**
 * One instance of a service: it owns one event loop and the server(s) it listens with. The
 * runtime sets {@link #service} before {@code start()}; a verticle listens through
 * {@link ServiceContext#listen} so that drain and the port-0 case work the same for every service.
 */
public abstract class ServiceVerticle extends VerticleBase {

  protected ServiceContext service;

  final void attach(ServiceContext service) {
    this.service = service;
  }

  final Context vertxContext() {
    return context;
  }

  /**
   * Called on this instance's event loop when the warm-up before ready has ended (not at all when
   * there was none): from here on traffic is the service's own. A service that kept warm-up
   * requests out of its meters (see {@link ServiceContext#warmingUp()}) switches back here.
   */
  protected void warmedUp() {}

  /**
   * Stops taking new connections and lets open ones finish, completing when they have or when
   * the timeout has passed. The default shuts down, gracefully, every server this verticle
   * listened with; override to add service-specific draining, and call this too.
   */
  public Future<Void> drain(Duration timeout) {
    return service.shutdownServers(timeout);
  }
}
