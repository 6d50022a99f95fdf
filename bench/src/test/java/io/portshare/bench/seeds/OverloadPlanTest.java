package io.portshare.bench.seeds;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Seed 004's ladder: the rates from the closed-loop maxima, the alternating order, the refused settings. */
class OverloadPlanTest {

  private static OverloadPlan plan(List<Integer> shares) {
    return new OverloadPlan(shares, Duration.ofSeconds(1), Duration.ofSeconds(5), 64, 1, Duration.ofSeconds(1), 1);
  }

  private record Case(double epollMax, double uringMax, List<Integer> shares, List<OverloadPlan.Rung> rungs) {}

  private static final List<Case> CASES = List.of(
      // the faster maximum sets every rate, so both transports are offered the same rates
      new Case(2000, 2400, List.of(100, 125, 150),
          List.of(new OverloadPlan.Rung(100, 2400), new OverloadPlan.Rung(125, 3000), new OverloadPlan.Rung(150, 3600))),
      new Case(3000, 1000, List.of(100, 150),
          List.of(new OverloadPlan.Rung(100, 3000), new OverloadPlan.Rung(150, 4500))),
      // io_uring refused: epoll's maximum alone
      new Case(1000, Double.NaN, List.of(100, 200), List.of(new OverloadPlan.Rung(100, 1000),
          new OverloadPlan.Rung(200, 2000))),
      // the order of the shares is kept; rates are rounded
      new Case(333.3, 0, List.of(150, 50), List.of(new OverloadPlan.Rung(150, 500), new OverloadPlan.Rung(50, 167))),
      // nothing answered: no rate at all rather than a rate of 0 (which would be a closed loop)
      new Case(0, Double.NaN, List.of(100, 150), List.of()),
      new Case(1, 0, List.of(10, 100), List.of(new OverloadPlan.Rung(100, 1))));

  @Test
  void ratesAreSharesOfTheFasterMaximum() {
    for (Case c : CASES) {
      assertThat(plan(c.shares()).rungs(c.epollMax(), c.uringMax())).as("%s", c).isEqualTo(c.rungs());
    }
  }

  @ParameterizedTest(name = "round {0}, step {1}: {2} first")
  @CsvSource({"0,0,epoll", "0,1,io_uring", "0,2,epoll", "1,0,io_uring", "1,1,epoll", "2,3,io_uring"})
  void theOrderAlternatesByStepAndByRound(int round, int step, String first) {
    assertThat(OverloadPlan.order(List.of("epoll", "io_uring"), round, step)).first().isEqualTo(first);
    assertThat(OverloadPlan.order(List.of("epoll"), round, step)).containsExactly("epoll");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "--overload-shares|0|1|64|1",
      "--overload-shares|100,100|1|64|1",
      "--overload-shares|1001|1|64|1",
      "--overload-duration|100|0|64|1",
      "--overload-connections|100|1|0|1",
      "--overload-client-loops|100|1|64|0"})
  void badSettingsAreRefusedNamingTheOption(String option, String shares, long seconds, int connections, int loops) {
    List<Integer> s = java.util.Arrays.stream(shares.split(",")).map(Integer::valueOf).toList();
    assertThatThrownBy(() -> new OverloadPlan(s, Duration.ZERO, Duration.ofSeconds(seconds), connections, loops,
        Duration.ofSeconds(1), 1)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("invalid value for " + option + ": ");
  }
}
