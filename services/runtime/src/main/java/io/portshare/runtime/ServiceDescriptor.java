package io.portshare.runtime;

import io.vertx.core.DeploymentOptions;
import io.vertx.core.VertxOptions;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * What the launcher needs to know to run a service: its name, default ports, its own options and
 * how to make one verticle instance. Register an implementation in
 * {@code META-INF/services/io.portshare.runtime.ServiceDescriptor}; the launcher finds it by name
 * and gives it the scaling modes, admin endpoints, metrics and graceful drain.
 */
public interface ServiceDescriptor {

  /** Short name, used by {@code --service} and in metrics labels, e.g. {@code rpc}. */
  String name();

  /** One line for {@code --help}. */
  String description();

  int defaultPort();

  int defaultAdminPort();

  /**
   * The default of {@code --idle-timeout}: how long a connection may neither read nor write before it
   * is closed. The runtime sets it on the options {@link ServiceContext#httpServerOptions()} and
   * {@link ServiceContext#netServerOptions()} give (Vert.x's idle timeout); a service on a pipeline of
   * its own reads it from its settings. By default 60 seconds.
   */
  default Duration defaultIdleTimeout() {
    return Duration.ofSeconds(60);
  }

  /** Options of this service beyond the common ones (port, mode, instances, idle timeout, ...). */
  default List<Option> options() {
    return List.of();
  }

  /**
   * Checks settings beyond their types (e.g. that a directory exists), before anything starts;
   * throw {@link Settings#invalid} for a bad value.
   */
  default void validate(Settings settings) {}

  /**
   * The exchange that warms this service up before it reports ready (see {@code --warmup}): the
   * runtime drives it over loopback against every instance's listener until throughput settles.
   * The default is {@code GET /} over HTTP/1.1; a service of another protocol says its own, or
   * returns empty to start cold.
   */
  default Optional<WarmUpExchange> warmUp(Settings settings) {
    return Optional.of(WarmUpExchange.httpGet("/"));
  }

  /** A new verticle; one is deployed per instance (per event loop). */
  ServiceVerticle newVerticle();

  /**
   * A new verticle for these settings: a service with more than one engine picks by its own option
   * here ({@link #validate} has accepted them). By default, {@link #newVerticle()}.
   */
  default ServiceVerticle newVerticle(Settings settings) {
    return newVerticle();
  }

  /**
   * Adjusts the options of each Vert.x instance the service runs on, before it is built, as Vert.x's
   * own launcher lets {@code VertxApplicationHooks.beforeStartingVertx} do (a worker pool size, a
   * blocked-thread check, an address resolver). The runtime then sets what the scaling mode needs
   * and a service cannot change: the event loop count (one per instance, all of them in
   * {@code shared}) and the transport.
   */
  default void beforeStartingVertx(VertxOptions options) {}

  /**
   * Adjusts the deployment of the service's verticle, before it is deployed, as
   * {@code VertxApplicationHooks.beforeDeployingVerticle} does (a worker pool name, a threading
   * model, more config). The runtime then sets the instance count its mode needs, and the config
   * file's {@code service:} section, merged over the config set here, as the verticle's
   * {@code config()}.
   */
  default void beforeDeployingVerticle(DeploymentOptions options) {}
}
