package io.portshare.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.portshare.bench.results.Cell;
import io.portshare.bench.results.Metric;
import io.portshare.bench.results.Ratio;
import io.portshare.bench.results.Results;
import io.portshare.bench.results.ResultsWriter;
import io.portshare.bench.results.Round;
import io.portshare.bench.results.Row;
import io.portshare.bench.results.Table;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code report DIR} writes a run's files again from its results.json: a run of any command, and every
 * committed run the README's headline quotes (the ledger's, with its headline, and the storm's, with the
 * seeds' effects), byte for byte as the run wrote them.
 */
class ReportCommandTest {

  @TempDir
  Path dir;

  @Test
  void rewritesTheReportsOfARunFromItsResultsJson() throws Exception {
    Table t = new Table("bigfile", "100m.bin", List.of(new Metric("cpuSecondsPerGb", "CPU-s/GB", 3)),
        List.of("sendfile", "copying"), List.of(new Row("ours", List.of(
            new Cell("sendfile", List.of(new Round(Map.of("cpuSecondsPerGb", 0.2), 0, false))),
            new Cell("copying", List.of(new Round(Map.of("cpuSecondsPerGb", 1.6), 0, false)))))),
        new Ratio("sendfile", "copying"));
    ResultsWriter.writeAll(new Results("run", Map.of("command", "deploy/bench-static.sh"), List.of(t)), dir);
    String table = Files.readString(dir.resolve("table.txt"));
    String csv = Files.readString(dir.resolve("results.csv"));
    Files.delete(dir.resolve("table.txt"));
    Files.delete(dir.resolve("results.csv"));
    Files.delete(dir.resolve("report.html"));

    assertThat(BenchMain.execute("report", dir.toString())).isZero();
    assertThat(dir.resolve("table.txt")).hasContent(table);
    assertThat(dir.resolve("results.csv")).hasContent(csv);
    assertThat(Files.readString(dir.resolve("report.html"))).contains("0.13");
  }

  @Test
  void aDirectoryWithoutResultsOrWithOtherJsonIsBadUsage() throws Exception {
    assertThat(BenchMain.execute("report", dir.toString())).isEqualTo(2);
    Files.writeString(dir.resolve("results.json"), "{\"rows\": 3}");
    assertThat(BenchMain.execute("report", dir.toString())).isEqualTo(2);
  }

  static Stream<Path> committedRuns() {
    return HeadlineRuns.runs();
  }

  @ParameterizedTest
  @MethodSource("committedRuns")
  void writesACommittedRunsTablesAgainAsTheRunWroteThem(Path run) throws Exception {
    String raw = HeadlineRuns.rawFile(run);
    assertThat(run.resolve(raw)).isRegularFile();
    Files.copy(run.resolve(raw), dir.resolve(raw));
    assertThat(BenchMain.execute("report", dir.toString())).isZero();
    assertThat(dir.resolve("table.txt")).hasSameTextualContentAs(run.resolve("table.txt"));
    if (raw.equals("results.json")) {
      assertThat(dir.resolve("results.csv")).hasSameTextualContentAs(run.resolve("results.csv"));
    }
  }
}
