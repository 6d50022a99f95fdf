package io.portshare.bench.results;

import static org.assertj.core.api.Assertions.assertThat;

import io.portshare.bench.BenchMain;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
}
