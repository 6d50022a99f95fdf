package io.portshare.runtime.impl;

import io.portshare.runtime.ServiceDescriptor;
import io.portshare.runtime.Settings;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.json.JsonObject;

/**
 * The deployment a service's verticle gets, on the runtime or on a test's Vert.x: what the
 * descriptor's {@code beforeDeployingVerticle} hook sets (asked once), with the config file's
 * {@code service:} section merged over the hook's config as the verticle's {@code config()}.
 */
final class VerticleDeploymentOptions {

  private VerticleDeploymentOptions() {}

  /** The options every deployment of the service starts from; the caller sets the instance count. */
  static DeploymentOptions of(ServiceDescriptor descriptor, Settings settings) {
    DeploymentOptions options = new DeploymentOptions();
    descriptor.beforeDeployingVerticle(options);
    JsonObject config = options.getConfig() == null ? new JsonObject() : options.getConfig().copy();
    return options.setConfig(config.mergeIn(settings.serviceConfig(), true));
  }
}
