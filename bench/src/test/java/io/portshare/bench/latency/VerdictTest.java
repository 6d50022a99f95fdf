package io.portshare.bench.latency;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** When a latency cell is flagged, and why, table-driven. */
class VerdictTest {

  private record Case(long asked, double reached, double clientUtilisation, double generatorFloor, String reasons) {}

  private static final List<Case> CASES = List.of(
      new Case(1000, 1000, 0.3, 5000, ""),
      new Case(1000, 990, 0.3, 5000, ""), // exactly 99%: kept
      new Case(1000, 989.9, 0.3, 5000, "rate 99.0%"),
      new Case(1000, 500, 0.3, 5000, "rate 50.0%"),
      new Case(1000, 1000, 0.9, 5000, "client CPU 90%"),
      new Case(1000, 1000, Double.NaN, 5000, ""), // unknown client CPU claims nothing
      new Case(6000, 6000, 0.5, 5000, "above generator floor"),
      new Case(6000, 5000, 0.95, 5000, "rate 83.3%, client CPU 95%, above generator floor"),
      new Case(1000, 1000, 0.3, Double.NaN, ""));

  @Test
  void flagsWhenTheRateIsShortTheClientBusyOrTheRateAboveTheGeneratorsFloor() {
    for (Case c : CASES) {
      Verdict v = new Verdict(c.asked(), c.reached(), c.clientUtilisation(), c.generatorFloor());
      assertThat(v.reasons()).as("%s", c).isEqualTo(c.reasons());
      assertThat(v.flagged()).as("%s", c).isEqualTo(!c.reasons().isEmpty());
    }
  }
}
