package io.portshare.bench;

import io.portshare.bench.latency.LatencyTable;
import io.portshare.bench.ledger.LedgerReport;
import io.portshare.bench.results.Results;
import io.portshare.bench.results.ResultsJson;
import io.portshare.bench.results.ResultsText;
import io.portshare.bench.results.ResultsWriter;
import io.portshare.bench.seeds.SeedReport;
import io.portshare.runtime.config.ExitCodes;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code portshare-bench report DIR}: the text, CSV and HTML of a run again, from its {@code results.json};
 * table.txt as the command that ran wrote it (the ledger's headline, the seeds' effects), so that a
 * committed run's tables are made again from its raw results.
 */
@Command(name = "report", mixinStandardHelpOptions = true,
    description = "Writes table.txt, results.csv and report.html again from DIR/results.json, or a latency run's "
        + "table.txt from DIR/latency.csv (e.g. a committed run).")
public final class ReportCommand implements Callable<Integer> {

  @Parameters(paramLabel = "DIR", description = "the directory holding results.json")
  Path dir;

  @Override
  public Integer call() throws IOException {
    Path file = dir.resolve("results.json");
    Path latency = dir.resolve("latency.csv");
    if (!Files.isRegularFile(file) && Files.isRegularFile(latency)) {
      Files.writeString(dir.resolve("table.txt"), LatencyTable.fromCsv(Files.readString(latency, StandardCharsets.UTF_8))
          .text(), StandardCharsets.UTF_8);
      System.out.println("written: " + dir.resolve("table.txt") + " (from latency.csv)");
      return ExitCodes.OK;
    }
    if (!Files.isRegularFile(file)) {
      throw new IllegalArgumentException("no results.json or latency.csv in " + dir);
    }
    Results results;
    try {
      results = ResultsJson.read(new JsonObject(Files.readString(file, StandardCharsets.UTF_8)));
    } catch (RuntimeException e) { // not JSON, or JSON of another shape
      throw new IllegalArgumentException(file + " is not a results file: " + e.getMessage());
    }
    String text = switch (results.title()) {
      case LedgerReport.TITLE -> LedgerReport.text(results);
      case SeedReport.TITLE -> SeedReport.text(results);
      default -> ResultsText.of(results);
    };
    ResultsWriter.writeAll(results, text, dir);
    System.out.println("written: " + dir.resolve("report.html") + " (and table.txt, results.json, results.csv)");
    return ExitCodes.OK;
  }
}
