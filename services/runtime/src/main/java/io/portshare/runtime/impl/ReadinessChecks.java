package io.portshare.runtime.impl;

import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.ext.healthchecks.Status;

/** Where a service's own readiness checks go: the admin server's {@code /health/ready}. */
@FunctionalInterface
interface ReadinessChecks {

  /** Adds a check by name ({@code group/name} nests, as vertx-health-check's names do). */
  void add(String name, Handler<Promise<Status>> procedure);
}
