package io.portshare.runtime.impl;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.portshare.runtime.ServiceDescriptor;
import io.portshare.runtime.ServiceVerticle;
import io.portshare.runtime.Settings;
import io.portshare.runtime.config.RuntimeSettings;
import io.portshare.runtime.impl.mode.Modes;
import io.portshare.runtime.net.Connections;
import io.portshare.runtime.net.OwnPipelines;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.ext.healthchecks.HealthChecks;
import java.util.List;
import java.util.Map;

/**
 * A service's verticle deployed on a {@link Vertx} the caller made (a vertx-junit5 test's), one
 * instance, with the context the runtime would give it: its settings from flags, {@code config()}
 * from the config file's {@code service:} section and the descriptor's hook, the connection policy
 * of {@code listen} on Vert.x's servers, its readiness checks. What needs the runtime's own
 * transport (a pipeline of the service's own, the scaling modes, the warm-up, the admin port) is not
 * there: such a listen fails with one line naming the way that has it.
 */
public final class VerticleDeployment {

  private final Vertx vertx;
  private final String deploymentId;
  private final InstanceContext context;
  private final HealthChecks readiness;
  private final PrometheusMeterRegistry registry;

  private VerticleDeployment(Vertx vertx, String deploymentId, InstanceContext context, HealthChecks readiness,
      PrometheusMeterRegistry registry) {
    this.vertx = vertx;
    this.deploymentId = deploymentId;
    this.context = context;
    this.readiness = readiness;
    this.registry = registry;
  }

  /** Deploys one instance of {@code descriptor}'s verticle on {@code vertx}, its settings from {@code flags}. */
  public static Future<VerticleDeployment> deploy(Vertx vertx, ServiceDescriptor descriptor, String... flags) {
    Settings settings;
    try {
      settings = Settings.resolve(ServiceRuntime.options(descriptor), List.of(flags), Map.of());
      descriptor.validate(settings);
    } catch (RuntimeException e) {
      return Future.failedFuture(e);
    }
    RuntimeSettings common = RuntimeSettings.of(settings);
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    HealthChecks readiness = HealthChecks.create(vertx);
    InstanceContext context = new InstanceContext(descriptor.name(), settings, common, Modes.of(common.mode()), 0,
        common.port(), registry, new Connections(registry, descriptor.name(), 1, false), new OwnPipelines(), null,
        (name, procedure) -> {
          readiness.unregister(name);
          readiness.register(name, procedure);
        }, false);
    ServiceVerticle verticle = descriptor.newVerticle(settings);
    VerticleAccess.attach(verticle, context);
    DeploymentOptions deployment = VerticleDeploymentOptions.of(descriptor, settings).setInstances(1);
    return vertx.deployVerticle(verticle, deployment)
        .map(id -> new VerticleDeployment(vertx, id, context, readiness, registry));
  }

  /** The port the verticle listens on (the real one when 0 was asked for), or -1 before it listens. */
  public int port() {
    return context.actualPort();
  }

  /** The verticle's readiness checks, as {@code /health/ready} would ask them. */
  public HealthChecks readiness() {
    return readiness;
  }

  /** The registry the verticle's meters are in. */
  public PrometheusMeterRegistry registry() {
    return registry;
  }

  /** Drains the verticle's servers within {@code timeoutMillis}, then undeploys it. */
  public Future<Void> undeploy(long timeoutMillis) {
    return context.shutdownServers(java.time.Duration.ofMillis(timeoutMillis))
        .transform(ignored -> vertx.undeploy(deploymentId));
  }
}
