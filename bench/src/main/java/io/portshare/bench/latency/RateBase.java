package io.portshare.bench.latency;

import io.portshare.bench.load.Measurement;
import java.util.Locale;

/**
 * What a rung's share is a share of. At one rate for every server ({@link #FLOOR}) a server that
 * spends less CPU per request is less busy, and a tail grows with how busy a server is: on this
 * project's 1 KB keep-alive cell nginx's CPU was 0.80 to 0.89 busy at 80% of its own maximum where
 * static-server's was 0.62 to 0.71 (bench/report/latency/runs). {@link #EACH} puts every server at
 * the same share of its own capacity, so the tails compare at one utilisation.
 */
enum RateBase {
  /** The floor's closed-loop maximum: every server at one rate. */
  FLOOR("the floor's closed-loop maximum"),
  /** Each server's capacity: its closed-loop rate over the cores it kept busy, the rate that would keep it busy all the time. */
  EACH("each server's capacity (its closed-loop rate over the server cores it kept busy)");

  private final String describes;

  RateBase(String describes) {
    this.describes = describes;
  }

  /** Requests per second a share of 100% is, for the server of {@code own}'s closed loop, the floor's being {@code floor}. */
  double base(String server, Measurement own, Measurement floor) {
    if (this == FLOOR) {
      return floor.perSecond();
    }
    double cores = own.cpu().server() / own.cpu().wallSeconds();
    if (!(cores > 0)) {
      throw new IllegalStateException(String.format(Locale.ROOT,
          "--share-of each: %s's CPU in its closed loop is %s, so its capacity is unknown", server, cores));
    }
    return own.perSecond() / cores;
  }

  String describes() {
    return describes;
  }

  static RateBase named(String name) {
    return switch (name) {
      case "floor" -> FLOOR;
      case "each" -> EACH;
      default -> throw new IllegalArgumentException("invalid value for --share-of: " + name + "; expected floor or each");
    };
  }
}
