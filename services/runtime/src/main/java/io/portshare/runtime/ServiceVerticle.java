package io.portshare.runtime;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import java.time.Duration;

/**
 * One instance of a service: it owns one event loop and the server(s) it listens with. The
 * runtime sets {@link #service} before {@code start()}; a verticle listens through
 * {@link ServiceContext#listen} so that the scaling mode, the connection policy and the drain work
 * the same for every service. {@link #config()} holds the service's section of the config file
 * ({@code service:}), as Vert.x's own deployment config does; the runtime's options are in
 * {@link ServiceContext#settings()}.
 *
 * <p>A service may deploy further verticles of its own from {@code start()} (a worker verticle,
 * say) with {@code vertx.deployVerticle}: they run on this instance's Vert.x and are undeployed with it.
 */
public abstract class ServiceVerticle extends VerticleBase {

  /** This instance's place in the service; set by the runtime before {@code start()}. */
  protected ServiceContext service;

  /**
   * Refuses a deployment the runtime did not set up: without its context, {@code service} would be
   * null in {@code start()}.
   */
  @Override
  public void init(Vertx vertx, Context context) {
    if (service == null) {
      throw new IllegalStateException(getClass().getName() + " is a ServiceVerticle: run it on the portshare"
          + " runtime (the launcher), or in a test through portshare-test (Services.start, or Services.deploy"
          + " on a Vertx of the test's own), which give it its ServiceContext");
    }
    super.init(vertx, context);
  }

  /** This instance's Vert.x context, for the runtime (reached through a private lookup). */
  @SuppressWarnings("unused")
  private Context vertxContext() {
    return context;
  }

  /**
   * Called on this instance's event loop when the warm-up before ready has ended (not at all when
   * there was none): from here on traffic is the service's own. A service whose meters are split by
   * {@link ServiceContext#warmUpSplit} needs nothing here.
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
