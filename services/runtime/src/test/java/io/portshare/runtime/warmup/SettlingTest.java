package io.portshare.runtime.warmup;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The warm-up's rule on series of its own, a tick (250 ms) at a time: settled once the median
 * exchange rate of the last 4 ticks and that of the 4 before lie within 0.9 of each other and every
 * instance has taken 12,500 connections, else the bound. {@link WarmUpTest} shows the warm-up
 * reaching every instance; a 2 s warm-up on a busy machine may end either way, so the rule itself is
 * shown here.
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
      // medians 6,500 then 8,000 at tick 8 (0.81); 7,750 then 8,000 at tick 9 (0.97)
      "settles once the rate stops climbing|2000 5000 8000 8000 7500 8000 8000 8000 8000 8000|20000 20000 20000 20000 20000 20000 20000 20000 20000 20000|10|settled|9",
      // flat from the start: eight ticks are the least it takes
      "a flat rate settles at the eighth tick|1000 1000 1000 1000 1000 1000 1000 1000|20000 20000 20000 20000 20000 20000 20000 20000|8|settled|8",
      // flat, so the count decides: 12,500 reached at tick 9
      "settles at the tick the least instance reaches 12,500|1000 1000 1000 1000 1000 1000 1000 1000 1000 1000|1500 3000 4500 6000 7500 9000 10500 12000 12500 14000|10|settled|9",
      // rpc-server's own start on 2 CPUs (exchanges per tick from its warm-up's debug lines): flat near
      // 14,000/s from the third second with a tick near 12,000/s in every four or five, which kept
      // four ticks in a row from lying within 0.9 of each other until the bound; medians 13,210/s
      // then 14,138/s at tick 14
      "one dipping tick in four or five still settles: rpc-server's own series|78 432 832 1657 2322 2832 2982 3284 3321 3706 3789 3302 3334 3735 3807 3323|40 252 648 1490 2659 4078 5569 7161 8833 10694 12573 14175 15856 17726 19631 21233|48|settled|14",
      // 20 % more each tick: the medians of two windows of four lie about 2x apart
      "a rate still climbing does not settle before the bound|1000 1200 1440 1728 2073 2488 2985 3583 4299 5159|20000 20000 20000 20000 20000 20000 20000 20000 20000 20000|10|bound|10",
      // flat, but one instance stays at 12,499 connections
      "below the minimum count it does not settle|1000 1000 1000 1000 1000 1000 1000 1000 1000 1000|3000 6000 9000 12000 12499 12499 12499 12499 12499 12499|10|bound|10",
      // each window's median 11.2 % above the one before: 0.8993 at every tick from the eighth
      "a window just outside 0.9 of the one before does not settle|1000 1000 1000 1000 1112 1112 1112 1112 1236 1236 1236 1236|20000 20000 20000 20000 20000 20000 20000 20000 20000 20000 20000 20000|12|bound|12",
      // 3,600/s against 4,000/s is 0.9 exactly: settled at the eighth tick
      "a window at 0.9 of the one before settles|1000 1000 1000 1000 900 900 900 900|20000 20000 20000 20000 20000 20000 20000 20000|8|settled|8",
      // a rate falling by 15 % is no plateau either
      "a rate falling by more than 0.9 does not settle|1000 1000 1000 1000 850 850 850 850|20000 20000 20000 20000 20000 20000 20000 20000|8|bound|8",
      // nothing answered is no plateau
      "no exchanges at all do not settle|0 0 0 0 0 0 0 0|20000 20000 20000 20000 20000 20000 20000 20000|8|bound|8",
      // settled and the bound at one tick: settled wins
      "settled at the bound's tick says settled|1000 1000 1000 1000 1000 1000 1000 1000|20000 20000 20000 20000 20000 20000 20000 20000|8|settled|8"})
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
