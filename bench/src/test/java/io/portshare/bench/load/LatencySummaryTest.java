package io.portshare.bench.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.portshare.bench.cpu.CpuSpent;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class LatencySummaryTest {

  @Test
  void percentilesOfAUniformSpreadAreWhereTheyShouldBeWithinTheHistogramsPrecision() {
    Histogram h = LatencySummary.newHistogram();
    for (long us = 1; us <= 100_000; us++) {
      h.recordValue(us);
    }
    LatencySummary s = LatencySummary.of(h);
    assertThat(s.count()).isEqualTo(100_000);
    // Three significant digits: every reported value is within 0.1% of the exact one.
    assertThat((double) s.p50()).isCloseTo(50_000, within(50.0));
    assertThat((double) s.p90()).isCloseTo(90_000, within(90.0));
    assertThat((double) s.p99()).isCloseTo(99_000, within(99.0));
    assertThat((double) s.p999()).isCloseTo(99_900, within(100.0));
    assertThat((double) s.max()).isCloseTo(100_000, within(100.0));
    assertThat(s.mean()).isCloseTo(50_000.5, within(60.0));
  }

  @Test
  void aSingleSlowOutlierShowsOnlyAtTheTop() {
    Histogram h = LatencySummary.newHistogram();
    for (int i = 0; i < 999; i++) {
      h.recordValue(100);
    }
    h.recordValue(5_000_000);
    LatencySummary s = LatencySummary.of(h);
    assertThat(s.p50()).isEqualTo(100);
    assertThat(s.p99()).isEqualTo(100);
    assertThat(s.p999()).isEqualTo(100);
    assertThat((double) s.max()).isCloseTo(5_000_000, within(5_000.0));
  }

  @Test
  void nanosecondsAreRecordedAsMicrosecondsAndClampedToTheRange() {
    Histogram h = LatencySummary.newHistogram();
    LatencySummary.record(h, 250);              // under 1 us counts as 1 us
    LatencySummary.record(h, 1_500_000);         // 1.5 ms
    LatencySummary.record(h, Long.MAX_VALUE);    // beyond an hour: clamped, not an exception
    assertThat(h.getTotalCount()).isEqualTo(3);
    assertThat(h.getMinValue()).isEqualTo(1);
    assertThat(h.valuesAreEquivalent(h.getValueAtPercentile(50), 1500)).isTrue();
    assertThat(h.getMaxValue()).isGreaterThanOrEqualTo(3_600_000_000L);
  }

  @Test
  void emptyHistogramGivesZerosNotAnException() {
    assertThat(LatencySummary.of(LatencySummary.newHistogram())).isEqualTo(LatencySummary.EMPTY);
  }

  @Test
  void mergingLoopsAddsTransactionsHistogramsAndErrors() {
    RunClock clock = new RunClock(0, 0, 10_000_000_000L);
    LongAdder done = new LongAdder();
    LoopStats a = new LoopStats(clock, done);
    LoopStats b = new LoopStats(clock, done);
    a.completed(1_000_000, 1);
    a.completed(2_000_000, 2);
    b.completed(3_000_000, 3);
    b.completed(4_000_000, 20_000_000_000L); // after the window: not counted
    b.error(ErrorKind.RESET, 5);
    Measurement r = LoopStats.merge(List.of(a, b), CpuSpent.unknown(2.0));
    assertThat(r.operations()).isEqualTo(3);
    assertThat(r.perSecond()).isEqualTo(1.5);
    assertThat(r.latency().count()).isEqualTo(3);
    assertThat(h(r.latency().max())).isCloseTo(3000, within(3.0));
    assertThat(r.errors()).containsEntry("reset", 1L).hasSize(1);
    assertThat(done.sum()).isEqualTo(3);
  }

  @Test
  void openLoopScheduleIsAFixedIntervalFromTheFirstDueTime() {
    long first = 1_000, interval = 500;
    assertThat(OpenLoopConnection.dueBy(999, first, interval)).isZero();
    assertThat(OpenLoopConnection.dueBy(1_000, first, interval)).isEqualTo(1);
    assertThat(OpenLoopConnection.dueBy(1_499, first, interval)).isEqualTo(1);
    assertThat(OpenLoopConnection.dueBy(1_500, first, interval)).isEqualTo(2);
    assertThat(OpenLoopConnection.dueBy(1_000 + 500 * 1000, first, interval)).isEqualTo(1001);
  }

  @Test
  void warmupIsOutsideTheWindow() {
    RunClock c = new RunClock(100, 50, 1000);
    assertThat(c.measuring(149)).isFalse();
    assertThat(c.measuring(150)).isTrue();
    assertThat(c.measuring(1149)).isTrue();
    assertThat(c.measuring(1150)).isFalse();
    assertThat(c.over(1150)).isTrue();
  }

  private static double h(long v) {
    return v;
  }
}
