package io.portshare.bench.latency;

import io.portshare.bench.load.Measurement;
import java.util.Locale;

/**
 * What a rung's share is a share of. At one rate for every server ({@link #FLOOR}) a server that
 * spends less CPU per request is less busy, and a tail grows with how busy a server is: in the 1 KB
 * keep-alive cell at 80% of nginx's maximum, nginx's core was 0.77 to 0.89 busy and static-server's
 * 0.57 to 0.70 (bench/report/latency/runs, three runs). {@link #EACH} puts every server at the same
 * share of its own capacity, so the tails compare at one utilisation (bench/report/latency/share-of-each).
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
