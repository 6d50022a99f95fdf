package io.portshare.runtime;

import java.util.List;

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

  /** Options of this service beyond the common ones (port, mode, instances, ...). */
  default List<Option> options() {
    return List.of();
  }

  /**
   * Checks settings beyond their types (e.g. that a directory exists), before anything starts;
   * throw {@link Settings#invalid} for a bad value.
   */
  default void validate(Settings settings) {}

  /** A new verticle; one is deployed per instance (per event loop). */
  ServiceVerticle newVerticle();
}
