package io.portshare.bench.cpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class CpuTimeTest {

  @Test
  void readsUtimeStimeAndChildrenAfterACommandNameWithSpacesAndParentheses() {
    String stat = "4242 (my (odd) cmd) S 1 4242 4242 0 -1 4194560 500 0 0 0 123 45 67 89 20 0 9 0 100 0 0";
    assertThat(CpuTime.parse(stat, 0)).containsExactly(123, 45);
    assertThat(CpuTime.parse(stat, 2)).containsExactly(67, 89);
  }

  @Test
  void aProcessThatIsGoneSpendsNothing() {
    assertThat(CpuTime.ticks("/proc/0/stat-that-does-not-exist", 0)).containsExactly(0, 0);
  }

  /**
   * How wrk's CPU is read: a child that only computes shows its CPU time once it is waited for. The
   * child computes until its own CPU time is seen to pass 0.1 s, however fast or busy the machine;
   * what is counted once it is reaped is at least what was seen.
   */
  @Test
  void aReapedChildsCpuTimeIsCounted() throws Exception {
    CpuTime before = CpuTime.ofReapedChildren();
    Process p = new ProcessBuilder("sh", "-c", "while :; do :; done").start();
    double seen;
    try {
      await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(20))
          .until(() -> CpuTime.seconds(List.of(p.pid())) >= 0.1);
      seen = CpuTime.seconds(List.of(p.pid()));
    } finally {
      p.destroy();
    }
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    // Both are whole clock ticks; the subtraction of two sums in seconds may come out a hair under.
    assertThat(CpuTime.ofReapedChildren().minus(before).seconds()).isGreaterThanOrEqualTo(seen - 1e-9);
  }

  @Test
  void processesThatCannotBeReadGiveNaNNotZero() {
    assertThat(CpuTime.seconds(List.of())).isNaN();
    assertThat(CpuTime.seconds(List.of(ProcessHandle.current().pid(), Long.MAX_VALUE))).isNaN();
    assertThat(CpuTime.seconds(List.of(ProcessHandle.current().pid()))).isPositive();
    assertThat(CpuTime.self()).isPositive();
  }

  @Test
  void thisJvmHasSpentCpuAndDifferencesSubtract() {
    CpuTime now = CpuTime.ofTree(ProcessHandle.current());
    assertThat(now.seconds()).isPositive();
    CpuTime d = new CpuTime(3, 2).minus(new CpuTime(1, 0.5));
    assertThat(d.userSeconds()).isEqualTo(2);
    assertThat(d.systemSeconds()).isEqualTo(1.5);
    assertThat(d.seconds()).isEqualTo(3.5);
  }
}
