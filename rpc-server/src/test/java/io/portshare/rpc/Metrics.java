package io.portshare.rpc;

import io.portshare.runtime.ServiceRuntime;

/** Reads the service's own Prometheus text, as a scraper would. */
final class Metrics {

  private Metrics() {}

  /** The sum over every sample of {@code name}, whatever its labels. */
  static double sum(ServiceRuntime runtime, String name) {
    double total = 0;
    for (String line : runtime.registry().scrape().split("\n")) {
      if (line.startsWith(name + "{") || line.startsWith(name + " ")) {
        total += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
      }
    }
    return total;
  }
}
