package io.portshare.bench.results;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResultsTest {

  private static final List<Metric> METRICS = List.of(new Metric("rps", "req/s", 0), new Metric("cpu", "CPU µs/req", 1));

  private static Round round(double rps, double cpu) {
    return new Round(Map.of("rps", rps, "cpu", cpu), 0, false);
  }

  private static Results sample() {
    Row small = new Row("1k keep-alive", List.of(
        new Cell("ours", List.of(round(300, 20), round(100, 22), round(200, 21))),
        new Cell("peer", List.of(round(100, 30), new Round(Map.of("rps", 120.0, "cpu", 31.0), 3, true),
            new Round(Map.of("rps", 80.0, "cpu", 29.0), 0, true)))));
    Row failed = new Row("index close", List.of(), "server did not start: port in use");
    Table t = new Table("files", "Static files", METRICS, List.of("ours", "peer"), List.of(small, failed),
        new Ratio("ours", "peer"));
    return new Results("static benchmark", Map.of("command", "deploy/bench-static.sh"), List.of(t));
  }

  @Test
  void medianIsTheMiddleRoundOrTheMeanOfTheMiddleTwo() {
    assertThat(Stats.median(new double[] {5, 1, 3})).isEqualTo(3);
    assertThat(Stats.median(new double[] {4, 1, 3, 2})).isEqualTo(2.5);
    assertThat(Stats.median(new double[0])).isNaN();
  }

  @Test
  void spreadIsHalfTheRangeOverTheMedian() {
    assertThat(Stats.spreadPercent(new double[] {100, 200, 300})).isCloseTo(50, within(1e-9));
    assertThat(Stats.spreadPercent(new double[] {7})).isZero();
  }

  @Test
  void aCellSummarisesItsRoundsAndCarriesFlagsAndErrors() {
    Cell peer = sample().tables().get(0).rows().get(0).cell("peer");
    assertThat(peer.median("rps")).isEqualTo(100);
    assertThat(peer.min("rps")).isEqualTo(80);
    assertThat(peer.max("rps")).isEqualTo(120);
    assertThat(peer.errors()).isEqualTo(3);
    assertThat(peer.clientBound()).isTrue();
    assertThat(sample().tables().get(0).rows().get(0).cell("ours").clientBound()).isFalse();
    Round bound = new Round(Map.of("rps", 1.0), 0, true);
    assertThat(new Cell("c", List.of(bound, round(1, 1), round(1, 1))).clientBound()).as("1 of 3").isFalse();
    assertThat(new Cell("c", List.of(bound, round(1, 1))).clientBound()).as("1 of 2").isTrue();
  }

  @Test
  void ratioComparesTheHeadlineMedians() {
    Table t = sample().tables().get(0);
    assertThat(t.ratio().of(t.rows().get(0), "rps")).isEqualTo(2.0);
    assertThat(t.ratio().of(t.rows().get(1), "rps")).isNaN();
  }

  @Test
  void clientBoundWhenTheClientOutspendsTheServerOrFillsItsThreads() {
    assertThat(ClientBound.judge(1.2, 1.0, 3, 2, 2)).isTrue();
    assertThat(ClientBound.judge(5.5, 6.0, 3, 2, 2)).isTrue(); // 1.83 of 2 threads busy
    assertThat(ClientBound.judge(2.0, 3.0, 3, 2, 2)).isFalse();
    assertThat(ClientBound.judge(2.8, 3.0, 3, 4, 1)).isTrue(); // threads beyond the CPUs do not count
  }

  @Test
  void textShowsMedianRangeRatioFlagsAndNotes() {
    String text = ResultsText.of(sample());
    assertThat(text).startsWith("command: deploy/bench-static.sh\n");
    assertThat(text).contains("Static files: req/s, median of 3 rounds (min-max)");
    assertThat(text).containsPattern("1k keep-alive\\s+200 \\(100-300\\)\\s+100 \\(80-120\\) ! \\*\\s+2\\.00");
    assertThat(text).containsPattern("1k keep-alive\\s+21\\.0\\s+30\\.0\\s+0\\.70");
    assertThat(text).contains("(server did not start: port in use)");
    assertThat(text).contains("! 1k keep-alive, peer: client-bound in 2 of 3 rounds");
    assertThat(text).contains("* 1k keep-alive, peer: 3 errors");
  }

  @Test
  void csvHasTheCommandLineThenOneLinePerRoundAndMetric() {
    List<String> lines = ResultsCsv.of(sample()).lines().toList();
    assertThat(lines.get(0)).isEqualTo("# command: deploy/bench-static.sh");
    assertThat(lines.get(1)).isEqualTo("table,row,column,round,client_bound,errors,metric,value");
    assertThat(lines).hasSize(2 + 2 * 3 * 2);
    assertThat(lines).contains("files,1k keep-alive,peer,2,1,3,rps,120.000", "files,1k keep-alive,peer,3,1,0,rps,80.000");
  }

  @Test
  void jsonCarriesSummariesAndReadsBackToTheSameResults() {
    Results r = sample();
    JsonObject json = new JsonObject(ResultsJson.of(r).encode());
    JsonObject cell = json.getJsonArray("tables").getJsonObject(0).getJsonArray("rows").getJsonObject(0)
        .getJsonArray("cells").getJsonObject(0);
    assertThat(cell.getJsonObject("summary").getJsonObject("rps").getDouble("median")).isEqualTo(200);
    JsonObject ratios = json.getJsonArray("tables").getJsonObject(0).getJsonArray("rows").getJsonObject(0)
        .getJsonObject("ratios");
    assertThat(ratios.getDouble("rps")).isEqualTo(2.0);
    assertThat(ratios.getDouble("cpu")).isCloseTo(0.7, within(1e-12));
    assertThat(ResultsJson.read(json)).isEqualTo(r);
  }

  @Test
  void htmlIsSelfContainedAndEscaped(@TempDir Path dir) throws Exception {
    Results r = new Results("a <b> & c", Map.of(), sample().tables());
    ResultsWriter.writeAll(r, dir);
    String html = Files.readString(dir.resolve("report.html"));
    assertThat(html).contains("a &lt;b&gt; &amp; c").doesNotContain("<script").doesNotContain("http://")
        .doesNotContain("https://");
    assertThat(html).contains("<td class=\"client\">");
    for (String f : ResultsWriter.FILES) {
      assertThat(dir.resolve(f)).isNotEmptyFile();
    }
  }
}
