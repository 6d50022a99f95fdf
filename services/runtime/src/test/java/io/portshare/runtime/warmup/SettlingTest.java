package io.portshare.runtime.warmup;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The warm-up's rule on series of its own, a tick (250 ms) at a time: settled once the last 4 ticks'
 * exchange rates lie within 0.9 of each other and every instance has taken 12,500 connections, else
 * the bound. {@link WarmUpTest} shows the warm-up reaching every instance; a 2 s warm-up on a busy
 * machine may end either way, so the rule itself is shown here.
 */
class SettlingTest {

  private static final long TICK_MILLIS = 250;

  /**
   * Each row: the exchanges answered in each tick, the fewest warm-up connections an instance had
   * accepted by each tick, the tick (from 1) at which the bound has passed, and the end and tick the
   * rule must give.
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      // rates 8,000 20,000 32,000 32,000 30,000 32,000/s: the last four within 0.9 from tick 6 (30,000 >= 28,800)
      "settles once four ticks lie within 0.9|2000 5000 8000 8000 7500 8000 8000 8000|1000 3500 7500 11500 15250 19250 23250 27250|8|settled|6",
      // 4,000/s flat from the start, so the count decides: 12,500 reached at tick 6
      "settles at the tick the least instance reaches 12,500|1000 1000 1000 1000 1000 1000 1000 1000|3000 6000 9000 12000 12400 12500 13000 13500|8|settled|6",
      // 20 % more each tick: the lowest of four is 0.58 of the highest
      "a rate still climbing does not settle before the bound|1000 1200 1440 1728 2074 2488 2986 3583|20000 20000 20000 20000 20000 20000 20000 20000|8|bound|8",
      // flat, but one instance stays at 12,499 connections
      "below the minimum count it does not settle|1000 1000 1000 1000 1000 1000 1000 1000|3000 6000 9000 12000 12499 12499 12499 12499|8|bound|8",
      // 3,596/s against 4,000/s is 0.899: every window of four holds one such tick
      "a spread just outside 0.9 does not settle|1000 1000 1000 899 1000 1000 1000 899|20000 20000 20000 20000 20000 20000 20000 20000|8|bound|8",
      // 3,600/s against 4,000/s is 0.9 exactly: settled at the fourth tick, the first with four rates
      "a spread of 0.9 settles|1000 1000 1000 900 1000 1000 1000 900|20000 20000 20000 20000 20000 20000 20000 20000|8|settled|4",
      // nothing answered is no plateau
      "no exchanges at all do not settle|0 0 0 0 0 0|20000 20000 20000 20000 20000 20000|6|bound|6",
      // settled and the bound at one tick: settled wins
      "settled at the bound's tick says settled|1000 1000 1000 1000|20000 20000 20000 20000|4|settled|4"})
  void endsAsTheRuleSays(String what, String perTick, String least, int boundTick, String end, int atTick) {
    long[] counts = series(perTick);
    long[] leastByTick = series(least);
    assertThat(leastByTick).hasSameSizeAs(counts);
    Settling settling = new Settling(TICK_MILLIS);
    long answered = 0;
    for (int tick = 1; tick <= counts.length; tick++) {
      answered += counts[tick - 1];
      Optional<String> ended = settling.tick(answered, 0, leastByTick[tick - 1], tick >= boundTick);
      assertThat(settling.lastRate()).as("rate at tick %d", tick).isEqualTo(counts[tick - 1] * 1000.0 / TICK_MILLIS);
      if (ended.isPresent()) {
        assertThat(ended).as("the end").contains(end);
        assertThat(tick).as("the tick it ended at").isEqualTo(atTick);
        return;
      }
      assertThat(tick).as("tick %d goes on", tick).isLessThan(atTick);
    }
    throw new AssertionError("the series ended without an end; expected " + end + " at tick " + atTick);
  }

  @Test
  void twoHundredFailuresMoreThanAnsweredGiveUp() {
    Settling settling = new Settling(TICK_MILLIS);
    assertThat(settling.tick(0, 199, 0, false)).isEmpty();
    // failures beside as many answers are a service that speaks the exchange, failing some
    assertThat(settling.tick(250, 250, 0, false)).isEmpty();
    assertThat(settling.tick(250, 251, 0, false)).contains("failing");
    // failing comes before the bound
    assertThat(new Settling(TICK_MILLIS).tick(0, 200, 0, true)).contains("failing");
  }

  private static long[] series(String s) {
    return Arrays.stream(s.trim().split(" +")).mapToLong(Long::parseLong).toArray();
  }
}
