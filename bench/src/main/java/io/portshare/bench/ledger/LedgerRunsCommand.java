package io.portshare.bench.ledger;

import io.portshare.runtime.config.ExitCodes;
import io.portshare.bench.results.RunCommand;
import io.portshare.kit.RawTable;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * Several ledger runs of one build as one table, the statistic a headline quotes: per cell, each
 * run's median (of per-round ratios, or of server CPU per operation), then the median over the runs
 * with their min-max. A cell whose runs disagree by more than the rounds within a run spread (the
 * runs' medians further apart than the median width of one run's min-max) is written "disagree",
 * which no figure can quote. The per-connection passes (system calls, bytes allocated, GC, memory) have one
 * figure per run and no rounds: their cells are the median over the runs with its min-max, never
 * "disagree". The system calls by name are left out: each run names the calls it saw. Runs of different commits or pinnings are refused.
 */
@Command(name = "ledger-runs", mixinStandardHelpOptions = true,
    description = "Combines ledger runs of one build (each a directory with its table.txt) into one table.txt: the "
        + "median over runs of each run's median, min-max over runs; cells whose runs disagree are flagged")
public final class LedgerRunsCommand implements Callable<Integer> {

  @Spec
  CommandSpec spec;

  @Option(names = "--out", required = true, description = "directory to write table.txt in")
  Path out;

  @Parameters(arity = "3..*", paramLabel = "RUN", description = "ledger run directories, at least three")
  List<Path> runs;

  @Override
  public Integer call() throws Exception {
    List<RawTable> tables = new ArrayList<>();
    for (Path run : runs) {
      tables.add(RawTable.parse(Files.readString(run.resolve("table.txt"), StandardCharsets.UTF_8)));
    }
    String commit = same(tables, "commit");
    String pinning = tables.get(0).header("pinning").orElse("shared: nothing pinned (a run from before --pinning)");
    for (int i = 1; i < tables.size(); i++) {
      if (!tables.get(i).header("pinning").orElse(pinning).equals(pinning)) {
        throw new IllegalArgumentException("invalid value for RUN: " + runs.get(i) + " was pinned otherwise than "
            + runs.get(0) + "; runs combined must be measured the same way");
      }
    }
    StringBuilder s = new StringBuilder();
    s.append("command: ").append(RunCommand.of(spec)).append('\n');
    s.append("portshare ledger over runs: the statistic a headline quotes\n");
    s.append("  commit: ").append(commit).append('\n');
    s.append("  pinning: ").append(pinning).append('\n');
    List<String> loads = tables.stream().map(t -> t.header("load average at start").orElse("?")).toList();
    s.append("  load average at start: ").append(String.join("; ", loads)).append(" (each run's)\n");
    s.append("  runs: ").append(runs.size()).append('\n');
    for (int i = 0; i < runs.size(); i++) {
      s.append("  run ").append(i + 1).append(": ").append(runs.get(i).getFileName()).append(", ")
          .append(tables.get(i).header("date").orElse("?")).append(", ").append(tables.get(i).header("command")
              .orElse("?")).append('\n');
    }
    s.append("  statistic: per cell, each run's median (of per-round ratios to the floor, or of server CPU per "
        + "operation), then the median over the runs (min-max over the runs' medians); \"disagree\" where the runs' "
        + "medians lie further apart than the median width of a run's own min-max, a cell no figure quotes\n");
    for (String title : tables.get(0).titles()) {
      if (title.contains("each row over") || title.contains("one worker each side") || title.contains("per connection of the first")) {
        s.append('\n').append(section(tables, title));
      }
    }
    Files.createDirectories(out);
    Files.writeString(out.resolve("table.txt"), s.toString(), StandardCharsets.UTF_8);
    System.out.print(s);
    return ExitCodes.OK;
  }

  private String same(List<RawTable> tables, String key) {
    String first = tables.get(0).header(key).orElseThrow(() -> new IllegalArgumentException(
        "invalid value for RUN: " + runs.get(0) + " has no " + key + " in its table.txt"));
    for (int i = 1; i < tables.size(); i++) {
      if (!first.equals(tables.get(i).header(key).orElse(""))) {
        throw new IllegalArgumentException("invalid value for RUN: " + runs.get(i) + " is of another " + key + " than "
            + runs.get(0) + "; runs combined must be of one build");
      }
    }
    return first;
  }

  private static String section(List<RawTable> tables, String title) {
    String key = title.contains(":") ? title.substring(0, title.indexOf(':') + 1) : title.substring(0, title.indexOf(','));
    List<String> columns = tables.get(0).columns(key);
    List<String> rows = tables.get(0).rows(key);
    List<List<String>> cells = new ArrayList<>();
    for (String row : rows) {
      List<String> line = new ArrayList<>();
      for (String col : columns) {
        List<String> perRun = new ArrayList<>();
        for (RawTable t : tables) {
          perRun.add(t.rows(key).contains(row) ? t.cell(key, row, col) : "-");
        }
        line.add(RunsCell.of(perRun));
      }
      cells.add(line);
    }
    int first = rows.stream().mapToInt(String::length).max().orElse(4) + 2;
    int width = Math.max(18, Math.max(cells.stream().flatMap(List::stream).mapToInt(String::length).max().orElse(0),
        columns.stream().mapToInt(String::length).max().orElse(0)) + 2);
    // The per-connection passes give one figure per run (no rounds): combined the same way, never "disagree".
    String perRun = title.contains("per connection of the first") ? "figure" : "median";
    StringBuilder s = new StringBuilder(key.replace(":", "").strip() + ": median over " + tables.size()
        + " runs of each run's " + perRun + " (min-max over runs), from: " + title + "\n");
    s.append(" ".repeat(first));
    columns.forEach(c -> s.append(String.format("%" + width + "s", c)));
    s.append('\n');
    for (int r = 0; r < rows.size(); r++) {
      s.append(String.format("%-" + first + "s", rows.get(r)));
      cells.get(r).forEach(c -> s.append(String.format("%" + width + "s", c)));
      s.append('\n');
    }
    return s.toString();
  }
}
