package io.portshare.bench.latency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.portshare.bench.cpu.CpuSpent;
import io.portshare.bench.load.LatencySummary;
import io.portshare.bench.load.Measurement;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class RateBaseTest {

  /** A closed loop of 10 s that answered {@code perSecond} with the server {@code serverCores} busy. */
  private static Measurement closed(long perSecond, double serverCores) {
    return new Measurement(perSecond * 10, 10, LatencySummary.EMPTY, Map.of(), new CpuSpent(5, serverCores * 10, 10, 1));
  }

  @ParameterizedTest(name = "{0}: own {1}/s at {2} cores, floor {3}/s at {4} cores -> {5}/s")
  @CsvSource({
      // the floor's rate, whatever the server's own
      "floor, 200000, 0.92, 160000, 0.99, 160000",
      "floor, 100000, 0.50, 160000, 0.99, 160000",
      // its own rate over its busy cores: the rate at which it would be busy all the time
      "each,  200000, 0.80, 160000, 0.99, 250000",
      "each,  160000, 1.00, 160000, 0.99, 160000",
      "each,  100000, 0.50, 160000, 0.99, 200000",
  })
  void theBaseOfAShare(String name, long own, double ownCores, long floor, double floorCores, long expected) {
    double base = RateBase.named(name).base("static-server", closed(own, ownCores), closed(floor, floorCores));
    assertThat(base).isCloseTo(expected, org.assertj.core.data.Offset.offset(0.5));
  }

  @Test
  void eachNeedsTheServersCpu() {
    Measurement unknown = new Measurement(1_000_000, 10, LatencySummary.EMPTY, Map.of(), CpuSpent.unknown(10));
    assertThatThrownBy(() -> RateBase.EACH.base("nginx", unknown, unknown))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("--share-of each: nginx's CPU in its closed loop is NaN, so its capacity is unknown");
    assertThat(RateBase.FLOOR.base("nginx", unknown, unknown)).isEqualTo(100_000);
  }

  @Test
  void anUnknownNameIsRefusedInOneLine() {
    assertThatThrownBy(() -> RateBase.named("own"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("invalid value for --share-of: own; expected floor or each");
  }
}
