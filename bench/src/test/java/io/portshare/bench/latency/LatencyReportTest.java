package io.portshare.bench.latency;

import static org.assertj.core.api.Assertions.assertThat;

import io.portshare.bench.BenchMain;
import io.portshare.bench.ChartsScript;
import io.portshare.bench.cpu.CpuSpent;
import io.portshare.bench.load.LatencySummary;
import io.portshare.bench.load.Measurement;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The latency reports from given cells (no load), and the command's answer to bad arguments. */
class LatencyReportTest {

  private static LatencyCell cell(String server, int share, long asked, double reached, double client,
      Map<String, Long> errors, long... micros) {
    Measurement m = new Measurement((long) reached, 1.0, LatencySummary.EMPTY, errors, new CpuSpent(client, 0.2, 1.0, 1));
    Percentiles p = new Percentiles((long) reached, micros[0], micros[1], micros[2], micros[3], micros[4], micros[5]);
    return new LatencyCell("64B|1x", server, share, asked, m, p, new Verdict(asked, reached, client, 9000));
  }

  private static LatencyReport report() {
    Map<String, String> meta = new LinkedHashMap<>();
    meta.put("command", "deploy/bench.sh latency");
    meta.put("commit", "abc123");
    meta.put("load average at start", "0.1 0.2 0.3");
    meta.put("load average at end", "0.4 0.5 0.6");
    return new LatencyReport(meta, List.of(
        cell("c-echo", 0, 0, 8000, 0.5, Map.of(), 50, 90, 200, 400, 800, 900),
        cell("rpc-server", 0, 0, 7000, 0.5, Map.of(), 60, 95, 210, 420, 850, 950),
        cell("c-echo", 50, 4000, 4000, 0.3, Map.of(), 40, 80, 150, 300, 700, 800),
        cell("rpc-server", 50, 4000, 4000, 0.3, Map.of(), 45, 85, 160, 320, 720, 820),
        cell("c-echo", 120, 9600, 8100, 0.95, Map.of("unanswered", 1500L), 9_000, 90_000, 400_000, 500_000, 510_000, 520_000),
        cell("rpc-server", 120, 9600, 7000, 0.6, Map.of("timeout", 3L, "unanswered", 2600L), 9_500, 95_000, 410_000,
            510_000, 520_000, 530_000)));
  }

  @Test
  void theRawFileNamesItsRunAndHoldsEveryFigure() {
    String csv = report().csv();
    assertThat(csv).startsWith("# command: deploy/bench.sh latency\n# commit: abc123\n")
        .contains("# load average at start: 0.1 0.2 0.3", "# load average at end: 0.4 0.5 0.6")
        .contains("64B|1x,c-echo,closed,0,8000.0,8000,50,90,200,400,800,900,0,0.50,0.20,\n")
        .contains("64B|1x,rpc-server,120%,9600,7000.0,7000,9500,95000,410000,510000,520000,530000,"
            + "timeout 3; unanswered 2600,0.60,0.20,rate 72.9%; above generator floor\n");
  }

  @Test
  void theTableFlagsWhatTheGeneratorOrTheRateHeldAndShowsTheGeneratorsFloor() {
    String text = report().text();
    assertThat(text).contains("FLAGGED: rate 84.4%, client CPU 95%, above generator floor")
        .contains("generator floor (the best closed-loop rate it reached, against any server): 8000.0/s")
        .contains("unanswered 1500");
    assertThat(text.lines().filter(l -> l.startsWith("c-echo") && l.contains(" 50% ")).findFirst().orElseThrow())
        .doesNotContain(LatencyReport.FLAGGED);
  }

  @Test
  void gnuplotDrawsEachColumnAtItsHighestShareBelowTheMaximumFromTheCsv(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("latency.csv"), report().csv());
    assertThat(ChartsScript.draw(dir)).contains("latency-64B_1x.png");
    assertThat(Files.readAllBytes(dir.resolve("latency-64B_1x.png"))).startsWith(0x89, 'P', 'N', 'G');
  }

  @Test
  void withJvmVariantsEveryTableHasTheGcPausesBesideThePercentilesAndThePeersADash() {
    Map<String, String> meta = new LinkedHashMap<>();
    meta.put("command", "deploy/bench.sh latency --jvm g1=-XX:+UseG1GC --jvm parallel=-XX:+UseParallelGC");
    LatencyCell peer = cell("c-echo", 50, 4000, 4000, 0.3, Map.of(), 40, 80, 150, 300, 700, 800);
    LatencyCell g1 = withGc(cell("rpc-server[g1]", 50, 4000, 4000, 0.3, Map.of(), 45, 85, 160, 320, 720, 820),
        new GcPauses(3, 7.5, 4.25));
    LatencyCell parallel = withGc(cell("rpc-server[parallel]", 50, 4000, 4000, 0.3, Map.of(), 45, 85, 160, 320, 720,
        820), new GcPauses(0, 0, 0));
    LatencyReport report = new LatencyReport(meta, List.of(peer, g1, parallel));
    assertThat(report.csv())
        .contains("column,server,share,asked_per_s,reached_per_s,count,p50_us,p90_us,p99_us,p99.9_us,p99.99_us,max_us,"
            + "gc_pauses,gc_pause_total_ms,gc_pause_max_ms,errors,client_cpu_cores,server_cpu_cores,flag\n")
        .contains("64B|1x,c-echo,50%,4000,4000.0,4000,40,80,150,300,700,800,-,-,-,0,0.30,0.20,")
        .contains("64B|1x,rpc-server[g1],50%,4000,4000.0,4000,45,85,160,320,720,820,3,7.50,4.25,0,0.30,0.20,")
        .contains("64B|1x,rpc-server[parallel],50%,4000,4000.0,4000,45,85,160,320,720,820,0,0.00,0.00,0,");
    String text = report.text();
    assertThat(text).contains("GC pauses  GC total  GC max", "longest in ms");
    assertThat(text.lines().filter(l -> l.startsWith("rpc-server[g1] 50%")).findFirst().orElseThrow())
        .containsPattern("0\\.82 +3 +7\\.50 +4\\.25 +0 ");
    assertThat(report().csv()).as("without variants, as before").doesNotContain("gc_");
    assertThat(report().text()).doesNotContain("GC");
  }

  private static LatencyCell withGc(LatencyCell c, GcPauses gc) {
    return new LatencyCell(c.workload(), c.server(), c.share(), c.asked(), c.measurement(), c.latency(), c.verdict(), gc);
  }

  @Test
  void badArgumentsExitWith2AndOneLine() {
    for (String[] args : List.of(new String[] {"latency", "--shares", "0"}, new String[] {"latency", "--past", "90"},
        new String[] {"latency", "--cells", "2k.bin close"}, new String[] {"latency", "--client-loops", "0"},
        new String[] {"latency", "--server-cpu", "first"}, new String[] {"latency", "--jvm", "-XX:+UseG1GC"},
        new String[] {"latency", "--jvm", "g1=UseG1GC"}, new String[] {"latency", "--jvm", "a=-Xmx1g", "--jvm", "a=-Xmx2g"},
        new String[] {"latency", "--server-java", "no/such/java"})) {
      ByteArrayOutputStream err = new ByteArrayOutputStream();
      PrintStream saved = System.err;
      System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
      int code;
      try {
        code = BenchMain.execute(args);
      } finally {
        System.setErr(saved);
      }
      String said = err.toString(StandardCharsets.UTF_8);
      assertThat(code).as(String.join(" ", args)).isEqualTo(2);
      assertThat(said.lines().count()).as(said).isEqualTo(1);
      assertThat(said).startsWith("portshare-bench: invalid value for " + args[1]);
    }
  }
}
