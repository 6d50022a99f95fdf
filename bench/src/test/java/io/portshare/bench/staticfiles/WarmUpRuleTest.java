package io.portshare.bench.staticfiles;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class WarmUpRuleTest {

  private final WarmUpRule rule = new WarmUpRule(Duration.ofSeconds(4), Duration.ofSeconds(10));

  @Test
  void goesOnWhileTheServerCpuPerRequestStillFalls() {
    assertThat(rule.done(List.of())).isFalse();
    assertThat(rule.done(List.of(400.0, 200.0))).isFalse();
    assertThat(rule.done(List.of(400.0, 200.0, 120.0))).isFalse();
    assertThat(rule.done(List.of(400.0, 136.0, 131.0))).isFalse(); // two agreeing by chance are not enough
  }

  @Test
  void stopsOnceTwoStepsAgreeAndTheLeastIsDone() {
    assertThat(rule.done(List.of(400.0, 200.0, 190.0, 195.0))).isTrue();
    assertThat(rule.settled(List.of(100.0, 109.0, 104.0))).isTrue();
    assertThat(rule.settled(List.of(100.0, 89.0, 95.0))).isFalse();
    WarmUpRule longer = new WarmUpRule(Duration.ofSeconds(8), Duration.ofSeconds(20));
    assertThat(longer.done(List.of(100.0, 100.0, 100.0))).isFalse(); // settled, but not yet the least
  }

  @Test
  void stopsAtTheMostEvenIfNotSettled() {
    assertThat(rule.done(List.of(500.0, 400.0, 300.0, 200.0, 100.0))).isTrue();
    assertThat(rule.settled(List.of(500.0, 400.0, 300.0, 200.0, 100.0))).isFalse();
  }
}
