package io.portshare.kit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * What jcmd GC.heap_info prints, as JDK 17 prints it for G1 and for the serial collector; this very
 * JVM read from outside, as /proc and jcmd show it.
 */
class ProcessReadingsTest {

  @Test
  void readsThisProcessFromProcAndNothingOfAProcessThatIsNot() {
    long self = ProcessHandle.current().pid();
    assertThat(ProcessReadings.rssBytes(self)).isPositive();
    assertThat(ProcessReadings.openFds(self)).isPositive();
    assertThat(ProcessReadings.rssBytes(Long.MAX_VALUE)).isEqualTo(-1);
    assertThat(ProcessReadings.openFds(Long.MAX_VALUE)).isEqualTo(-1);
  }

  @Test
  void heapAfterGcAsksTheJvmByJcmd() throws Exception {
    assertThat(ProcessReadings.heapAfterGc(ProcessHandle.current().pid())).isPositive();
  }

  @Test
  void heapUsedIsTheSumOfTheGenerationsBeforeMetaspace() {
    assertThat(ProcessReadings.heapUsed("""
        26327:
         garbage-first heap   total 40960K, used 5957K [0x0000000687400000, 0x0000000800000000)
          region size 4096K, 0 young (0K), 0 survivors (0K)
         Metaspace       used 8925K, committed 9088K, reserved 1114112K
          class space    used 1062K, committed 1152K, reserved 1048576K
        """)).isEqualTo(5957L * 1024);
    assertThat(ProcessReadings.heapUsed("""
        4242:
         def new generation   total 4928K, used 12K [0x00000000fc400000, 0x00000000fc950000, 0x00000000fd950000)
          eden space 4416K,   0% used [0x00000000fc400000, 0x00000000fc400000, 0x00000000fc850000)
         tenured generation   total 10944K, used 3008K [0x00000000fd950000, 0x00000000fe400000, 0x0000000100000000)
         Metaspace       used 8925K, committed 9088K, reserved 1114112K
        """)).isEqualTo((12L + 3008) * 1024);
    assertThatThrownBy(() -> ProcessReadings.heapUsed("4242:\nnot a JVM we know\n"))
        .hasMessageContaining("no heap figure");
  }
}
