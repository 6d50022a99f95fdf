package io.portshare.bench.seeds;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Seed 004's load: each transport's closed-loop maximum, then open-loop rates at {@code shares}
 * percent of the faster transport's maximum (so every rate at 100% or more is at or past both
 * transports' saturation, and both are offered the same rate, as httperf offered both servers
 * 3,000/s), {@code connections} connection slots of one request each ({@code Connection: close},
 * as httperf opened a connection per request), a request without progress for {@code timeout} an
 * error (httperf's {@code --timeout 1}).
 */
record OverloadPlan(List<Integer> shares, Duration warmup, Duration duration, int connections, int clientLoops,
    Duration timeout, int rounds) {

  /** A rate of the ladder: its share of the faster maximum and the requests/s it asks. */
  record Rung(int share, long rate) {

    String label() {
      return share + "%";
    }
  }

  OverloadPlan {
    shares = List.copyOf(shares);
    check(!shares.isEmpty() && shares.stream().allMatch(s -> s >= 1 && s <= 1000), "--overload-shares", shares,
        "percentages 1..1000");
    check(shares.stream().distinct().count() == shares.size(), "--overload-shares", shares, "each share once");
    check(!duration.isZero() && !duration.isNegative(), "--overload-duration", duration, "a positive duration");
    check(!warmup.isNegative(), "--overload-warmup", warmup, "zero or a positive duration");
    check(connections >= 1 && connections <= 10_000, "--overload-connections", connections, "1..10000");
    check(clientLoops >= 1 && clientLoops <= 64, "--overload-client-loops", clientLoops, "1..64");
    check(!timeout.isZero() && !timeout.isNegative(), "--overload-timeout", timeout, "a positive duration");
    check(rounds >= 1, "--rounds", rounds, "at least 1");
  }

  /**
   * The open-loop rates, in the order of {@code shares}, from the closed-loop maxima measured
   * (NaN where a transport did not run); a share whose rate rounds to nothing is left out.
   */
  List<Rung> rungs(double epollMax, double uringMax) {
    double base = base(epollMax, uringMax);
    List<Rung> out = new ArrayList<>();
    for (int share : shares) {
      long rate = Math.round(base * share / 100);
      if (rate >= 1) {
        out.add(new Rung(share, rate));
      }
    }
    return out;
  }

  /** The faster of the maxima that were measured; 0 when none was. */
  static double base(double epollMax, double uringMax) {
    double e = Double.isNaN(epollMax) ? 0 : epollMax;
    double u = Double.isNaN(uringMax) ? 0 : uringMax;
    return Math.max(e, u);
  }

  /**
   * Which transport runs first at step {@code step} of a round (the closed loops are steps 0 and 1's
   * pair, then one step per rung): the order alternates, and the next round starts the other way,
   * so neither transport always runs on a machine its twin just heated.
   */
  static <T> List<T> order(List<T> transports, int round, int step) {
    List<T> out = new ArrayList<>(transports);
    if ((round + step) % 2 == 1) {
      java.util.Collections.reverse(out);
    }
    return out;
  }

  private static void check(boolean ok, String option, Object value, String expected) {
    if (!ok) {
      throw new IllegalArgumentException("invalid value for " + option + ": " + value + "; expected " + expected);
    }
  }
}
