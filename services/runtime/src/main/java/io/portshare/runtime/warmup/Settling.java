package io.portshare.runtime.warmup;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.Optional;

/**
 * The warm-up's rule, apart from the exchanges it judges: at each tick, from the totals so far,
 * whether the warm-up ends and why. {@link WarmUp} drives the exchanges and asks this once a tick;
 * nothing here reads a clock or touches a socket, so the rule is tested on series of its own.
 *
 * <p>Settled: the rate has stopped climbing. The median exchange rate of the last
 * {@link #SETTLED_TICKS} ticks and that of the {@link #SETTLED_TICKS} before them lie within
 * {@link #SETTLED_SPREAD} of each other (the lower at least that share of the higher), and the
 * instance that accepted the fewest warm-up connections has accepted {@link #MIN_PER_INSTANCE}.
 * Medians, not every tick: rpc-server's rate, flat near 14,000 exchanges/s from its third second on 2
 * CPUs, dipped to about 11,000 for one tick in every four or five, so a rule asking four ticks in a
 * row to lie within 0.9 of each other ran its warm-up to the bound (12 s) in most fresh starts. A
 * service failing {@link #GIVE_UP_FAILURES} exchanges, more than it answers, ends it first; the bound
 * ends it last.
 */
final class Settling {

  /** Settled: the median rates of two windows of this many ticks, one after the other, lie within 0.9. */
  static final int SETTLED_TICKS = 4;
  static final double SETTLED_SPREAD = 0.9;
  /**
   * An instance is warm once it has served this many connections. Below it a plateau of the rate
   * may only be the first compiled tier, with the optimised one still to come: static-server on 2
   * instances still failed 1,557 of a 10,000-connection storm after 10,000 connections of warm-up
   * and failed none after about 25,000.
   */
  static final long MIN_PER_INSTANCE = 12_500;
  /** A service that fails this many exchanges, more than it answers, does not speak the exchange. */
  static final long GIVE_UP_FAILURES = 200;

  private final long tickMillis;
  private final Deque<Double> rates = new ArrayDeque<>();
  private long before;

  Settling(long tickMillis) {
    this.tickMillis = tickMillis;
  }

  /**
   * One tick: {@code answered} and {@code failed} exchanges so far, the fewest warm-up connections
   * an instance has accepted so far, and whether the bound has passed. The end it calls for
   * ("failing", "settled" or "bound"), or empty to go on.
   */
  Optional<String> tick(long answered, long failed, long leastPerInstance, boolean pastBound) {
    rates.addLast((answered - before) * 1000.0 / tickMillis);
    before = answered;
    if (rates.size() > 2 * SETTLED_TICKS) {
      rates.removeFirst();
    }
    if (failed >= GIVE_UP_FAILURES && failed > answered) {
      return Optional.of("failing");
    }
    if (settled() && leastPerInstance >= MIN_PER_INSTANCE) {
      return Optional.of("settled");
    }
    if (pastBound) {
      return Optional.of("bound");
    }
    return Optional.empty();
  }

  /** The exchange rate of the last tick, per second. */
  double lastRate() {
    return rates.isEmpty() ? 0 : rates.peekLast();
  }

  private boolean settled() {
    if (rates.size() < 2 * SETTLED_TICKS) {
      return false;
    }
    double[] all = rates.stream().mapToDouble(Double::doubleValue).toArray();
    double before = median(Arrays.copyOfRange(all, 0, SETTLED_TICKS));
    double last = median(Arrays.copyOfRange(all, SETTLED_TICKS, all.length));
    double low = Math.min(before, last);
    double high = Math.max(before, last);
    return high > 0 && low >= SETTLED_SPREAD * high;
  }

  private static double median(double[] window) {
    Arrays.sort(window);
    int mid = window.length / 2;
    return window.length % 2 == 1 ? window[mid] : (window[mid - 1] + window[mid]) / 2;
  }
}
