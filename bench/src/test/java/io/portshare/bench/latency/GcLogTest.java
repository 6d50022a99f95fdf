package io.portshare.bench.latency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A JVM's GC log as the latency bench reads it ({@code -Xlog:gc,gc+phases:...:timemillis}): which
 * lines are stop-the-world pauses, for each collector, and which pauses fall in a window. The lines
 * are as JDK 17 and JDK 25 wrote them.
 */
class GcLogTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      // G1: young, concurrent start, remark, full; an evacuation failure adds a parenthesis
      "[1796309481291ms] GC(0) Pause Young (Normal) (G1 Evacuation Pause) 6M->3M(64M) 17.960ms|1796309481291|17.960",
      "[1796309482007ms] GC(6) Pause Young (Concurrent Start) (G1 Evacuation Pause) 41M->39M(64M) 27.449ms|1796309482007|27.449",
      "[1796309482028ms] GC(7) Pause Remark 52M->30M(64M) 2.301ms|1796309482028|2.301",
      "[1796309502292ms] GC(8) Pause Young (Normal) (G1 Evacuation Pause) (Evacuation Failure: Allocation) 55M->57M(64M) 2.615ms|1796309502292|2.615",
      "[1796309502360ms] GC(12) Pause Full (G1 Compaction Pause) 63M->12M(47M) 54.191ms|1796309502360|54.191",
      // Parallel and Serial
      "[1796309485357ms] GC(0) Pause Young (Allocation Failure) 16M->4M(61M) 16.406ms|1796309485357|16.406",
      "[1796309485504ms] GC(5) Pause Full (Ergonomics) 54M->11M(50M) 68.677ms|1796309485504|68.677",
      // ZGC (JDK 17): its three pauses per cycle, under gc+phases
      "[1796309487573ms] GC(0) Pause Mark Start 0.008ms|1796309487573|0.008",
      "[1796309487589ms] GC(0) Pause Mark End 0.012ms|1796309487589|0.012",
      "[1796309487600ms] GC(0) Pause Relocate Start 0.011ms|1796309487600|0.011",
      // generational ZGC (JDK 21+): the generation before the phase
      "[1796309496698ms] GC(0) Y: Pause Mark Start (Major) 0.016ms|1796309496698|0.016",
      "[1796309496719ms] GC(0) O: Pause Mark End 0.022ms|1796309496719|0.022"})
  void aPauseLineGivesWhenThePauseEndedAndItsLength(String line, long endMillis, double ms) {
    assertThat(GcLog.pauses(List.of(line))).containsExactly(new GcPauses.Pause(endMillis, ms));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {
      "[1796309479921ms] Using G1",
      "[1796309482007ms] GC(7) Concurrent Mark Cycle",
      "[1796309481291ms] GC(0)   Pre Evacuate Collection Set: 0.1ms",
      "[1796309485490ms] GC(5) Marking Phase 54.961ms",
      "[1796309492300ms] GC(6) Phase 1: Mark live objects 4.399ms",
      // ZGC's cycles and concurrent phases run beside the application: not pauses
      "[1796309487589ms] GC(0) Concurrent Mark 15.983ms",
      "[1796309487603ms] GC(0) Garbage Collection (Warmup) 8M(12%)->6M(9%)",
      "[1796309496697ms] GC(0) Major Collection (Warmup)",
      "[1796309496716ms] GC(0) Y: Young Generation 8M(12%)->8M(12%) 0.019s",
      "[1796309496716ms] GC(0) Y: Concurrent Relocate 6.698ms",
      "Pause Young (Normal) (G1 Evacuation Pause) 6M->3M(64M) 17.960ms"})
  void otherLinesAreNotPauses(String line) {
    assertThat(GcLog.pauses(List.of(line))).isEmpty();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "[1796309479921ms] Using G1|G1",
      "[1796309483358ms] Using Parallel|Parallel",
      "[1796309490407ms] Using Serial|Serial",
      "[1796309486974ms] Using The Z Garbage Collector|The Z Garbage Collector"})
  void theLogNamesTheCollectorInUse(String line, String collector) {
    assertThat(GcLog.collector(List.of("[1796309479900ms] GC(0) Pause Young (Normal) 1M->1M(8M) 1.000ms", line)))
        .contains(collector);
  }

  private static final List<GcPauses.Pause> PAUSES = List.of(new GcPauses.Pause(1000, 1), new GcPauses.Pause(1500, 4),
      new GcPauses.Pause(2000, 2), new GcPauses.Pause(2999, 8), new GcPauses.Pause(3000, 16));

  @ParameterizedTest(name = "[{0}, {1}): {2} pauses, {3} ms, max {4} ms")
  @CsvSource({
      "0, 1000, 0, 0, 0",
      "0, 1001, 1, 1, 1",
      "1000, 2000, 2, 5, 4",
      "1000, 3000, 4, 15, 8",
      "3000, 4000, 1, 16, 16",
      "2000, 2000, 0, 0, 0",
      "4000, 5000, 0, 0, 0"})
  void aWindowCountsThePausesThatEndedInIt(long from, long to, int count, double totalMs, double maxMs) {
    assertThat(GcPauses.within(PAUSES, from, to)).isEqualTo(new GcPauses(count, totalMs, maxMs));
  }

  @Test
  void aLogFileIsReadWholeAndAMissingOneIsUnknownNotZero(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("gc.log");
    GcLog log = new GcLog(file);
    assertThat(log.pauses(0, Long.MAX_VALUE)).isEqualTo(GcPauses.NONE);
    assertThat(log.collector()).isEqualTo("unknown");
    Files.writeString(file, String.join("\n", "[1000ms] Using The Z Garbage Collector",
        "[2000ms] GC(0) Y: Pause Mark Start 0.010ms", "[2001ms] GC(0) Y: Concurrent Mark 12.000ms",
        "[2002ms] GC(0) Y: Pause Mark End 0.030ms", "[2003ms] GC(0) Y: Pause Relocate Start 0.020ms",
        "[2004ms] GC(0) Minor Collection (Allocation Rate) 10M(4%)->8M(3%) 0.021s", ""));
    assertThat(log.collector()).isEqualTo("The Z Garbage Collector");
    GcPauses p = log.pauses(2000, 3000);
    assertThat(p.count()).isEqualTo(3);
    assertThat(p.totalMs()).isCloseTo(0.06, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(p.maxMs()).isEqualTo(0.03);
    assertThat(log.jvmFlag()).isEqualTo("-Xlog:gc,gc+phases:file=" + file + ":timemillis:filecount=0");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "g1=-XX:+UseG1GC|g1|-XX:+UseG1GC",
      "zgc=-XX:+UseZGC -XX:+ZGenerational -Xmx512m|zgc|-XX:+UseZGC -XX:+ZGenerational -Xmx512m",
      "parallel.256m = -XX:+UseParallelGC   -Xmx256m |parallel.256m|-XX:+UseParallelGC -Xmx256m",
      "default=|default|''"})
  void aVariantIsANameAndJvmFlags(String text, String name, String flags) {
    JvmVariant v = JvmVariant.parse(text);
    assertThat(v.name()).isEqualTo(name);
    assertThat(String.join(" ", v.flags())).isEqualTo(flags);
    assertThat(v.row("rpc-server")).isEqualTo("rpc-server[" + name + "]");
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"-XX:+UseG1GC", "=-XX:+UseG1GC", "g 1=-XX:+UseG1GC", "g1=UseG1GC", "g1=-Xlog:gc"})
  void aBadVariantIsRefusedNamingTheOption(String text) {
    assertThatThrownBy(() -> JvmVariant.parse(text)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("invalid value for --jvm: " + text);
  }
}
