package io.portshare.bench.results;

import io.portshare.kit.RawTable;
import io.portshare.runtime.config.ExitCodes;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Predicate;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * Several runs of one build as one table, the statistic a headline quotes: per cell, each run's
 * figure (a ledger cell's median of per-round ratios or of server CPU per operation; a latency
 * percentile; the storm's median of its rounds), then the median over the runs with their min-max.
 * A cell whose runs' medians lie further apart than the rounds within a run spread (the median
 * width of one run's min-max) is written "disagree", which no figure can quote; a cell with one
 * figure per run and no rounds (the ledger's per-connection passes, latency percentiles, the
 * storm's counts) is never "disagree", its min-max is the spread. A text column (latency's flag)
 * says each distinct value with how many runs gave it. The ledger's system calls by name are left
 * out: each run names the calls it saw. Runs of different commits, kinds or pinnings are refused.
 */
@Command(name = "runs", aliases = "ledger-runs", mixinStandardHelpOptions = true,
    description = "Combines runs of one build (ledger, latency or the storm of seeds --seed 000; each a directory with "
        + "its table.txt) into one table.txt: the median over runs of each run's figure, min-max over runs; cells "
        + "whose runs disagree are flagged")
public final class RunsCommand implements Callable<Integer> {

  /** What a run measured, known by its sections' titles, and which of them combine. */
  enum Kind {
    LEDGER(t -> t.contains("each row over") || t.contains("one worker each side")
        || t.contains("per connection of the first")),
    LATENCY(t -> t.contains("(latency in ms")),
    STORM(t -> t.startsWith("Seed 000 on this machine"));

    private final Predicate<String> combined;

    Kind(Predicate<String> combined) {
      this.combined = combined;
    }

    static Kind of(RawTable table, Path run) {
      for (Kind k : values()) {
        if (table.titles().stream().anyMatch(k.combined)) {
          return k;
        }
      }
      throw new IllegalArgumentException("invalid value for RUN: " + run + "'s table.txt is none of a ledger, a "
          + "latency or a storm (seeds --seed 000) run");
    }
  }

  @Spec
  CommandSpec spec;

  @Option(names = "--out", required = true, description = "directory to write table.txt in")
  Path out;

  @Parameters(arity = "3..*", paramLabel = "RUN", description = "run directories, at least three")
  List<Path> runs;

  @Override
  public Integer call() throws Exception {
    List<RawTable> tables = new ArrayList<>();
    for (Path run : runs) {
      tables.add(RawTable.parse(Files.readString(run.resolve("table.txt"), StandardCharsets.UTF_8)));
    }
    String commit = same(tables, "commit");
    Kind kind = Kind.of(tables.get(0), runs.get(0));
    for (int i = 1; i < tables.size(); i++) {
      if (Kind.of(tables.get(i), runs.get(i)) != kind) {
        throw new IllegalArgumentException("invalid value for RUN: " + runs.get(i) + " is not a "
            + kind.name().toLowerCase() + " run as " + runs.get(0) + " is; runs combined measure one thing");
      }
    }
    String pinning = tables.get(0).header("pinning").orElse("");
    for (int i = 1; i < tables.size(); i++) {
      if (!tables.get(i).header("pinning").orElse("").equals(pinning)) {
        throw new IllegalArgumentException("invalid value for RUN: " + runs.get(i) + " was pinned otherwise than "
            + runs.get(0) + "; runs combined must be measured the same way");
      }
    }
    StringBuilder s = new StringBuilder();
    s.append("command: ").append(RunCommand.of(spec)).append('\n');
    s.append("portshare ").append(kind.name().toLowerCase()).append(" over runs: the statistic a headline quotes\n");
    s.append("  commit: ").append(commit).append('\n');
    if (!pinning.isEmpty()) {
      s.append("  pinning: ").append(pinning).append('\n');
    }
    List<String> loads = tables.stream().map(t -> t.header("load average at start").orElse("?")).toList();
    s.append("  load average at start: ").append(String.join("; ", loads)).append(" (each run's)\n");
    s.append("  runs: ").append(runs.size()).append('\n');
    for (int i = 0; i < runs.size(); i++) {
      s.append("  run ").append(i + 1).append(": ").append(runs.get(i).getFileName()).append(", ")
          .append(tables.get(i).header("date").orElse("?")).append(", ").append(tables.get(i).header("command")
              .orElse("?")).append('\n');
    }
    s.append("  statistic: per cell, each run's figure (a median of rounds where the run has rounds), then the median"
        + " over the runs (min-max over the runs' figures); \"disagree\" where the runs' medians lie further apart than"
        + " the median width of a run's own min-max, a cell no figure quotes; a text cell, each value with its runs\n");
    for (Map.Entry<String, String> section : sections(tables.get(0), kind).entrySet()) {
      s.append('\n').append(section(tables, section.getKey(), section.getValue()));
    }
    Files.createDirectories(out);
    Files.writeString(out.resolve("table.txt"), s.toString(), StandardCharsets.UTF_8);
    System.out.print(s);
    return ExitCodes.OK;
  }

  /**
   * The sections a run of {@code kind} combines: each one's key in {@link RawTable#cell} (the title's
   * start, "PARENT :: CHILD" for the storm's, whose titles the seed's published table repeats) and
   * the name the combined section goes by.
   */
  private static Map<String, String> sections(RawTable table, Kind kind) {
    Map<String, String> keys = new LinkedHashMap<>();
    List<String> titles = table.titles();
    for (int i = 0; i < titles.size(); i++) {
      String title = titles.get(i);
      if (kind == Kind.STORM && kind.combined.test(title)) {
        String parent = title.substring(0, title.indexOf(':'));
        keys.put(parent + ":", parent);
        for (String child : titles.subList(i + 1, titles.size())) {
          if (child.startsWith("Seed ")) {
            break;
          }
          keys.put(parent + " :: " + child, child);
        }
        break;
      }
      if (kind != Kind.STORM && kind.combined.test(title)) {
        int end = title.indexOf(':') > 0 ? title.indexOf(':') + 1
            : title.indexOf(" (") > 0 ? title.indexOf(" (") : title.indexOf(',');
        String key = title.substring(0, end);
        keys.putIfAbsent(key, key.replace(":", "").strip());
      }
    }
    return keys;
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

  private static String section(List<RawTable> tables, String key, String name) {
    List<String> columns = tables.get(0).columns(key);
    // Every run's rows, in the order they first appear: a latency run's rates past the maximum end
    // where that run counted errors.
    List<String> rows = new ArrayList<>();
    tables.forEach(t -> t.rows(key).stream().filter(r -> !rows.contains(r)).forEach(rows::add));
    List<List<String>> cells = new ArrayList<>();
    boolean rounds = false;
    for (String row : rows) {
      List<String> line = new ArrayList<>();
      for (String col : columns) {
        List<String> perRun = new ArrayList<>();
        for (RawTable t : tables) {
          perRun.add(t.rows(key).contains(row) && t.columns(key).contains(col) ? t.cell(key, row, col) : "-");
        }
        rounds |= perRun.stream().anyMatch(c -> c.matches("[0-9.]+ \\([0-9.]+-[0-9.]+\\).*"));
        line.add(col.equals("flag") ? texts(perRun) : RunsCell.of(perRun));
      }
      cells.add(line);
    }
    int first = rows.stream().mapToInt(String::length).max().orElse(4) + 2;
    // Each column as wide as its name or its widest cell, and two blanks apart: a long flag column
    // leaves the figures' columns narrow.
    int[] widths = new int[columns.size()];
    for (int c = 0; c < columns.size(); c++) {
      int w = columns.get(c).length();
      for (List<String> line : cells) {
        w = Math.max(w, line.get(c).length());
      }
      widths[c] = Math.max(w, 8) + 2;
    }
    String title = title(tables.get(0).titles(), key);
    StringBuilder s = new StringBuilder(name + ": median over " + tables.size() + " runs of each run's "
        + (rounds ? "median" : "figure") + " (min-max over runs), from: " + title + "\n");
    s.append(" ".repeat(first));
    for (int c = 0; c < columns.size(); c++) {
      s.append(String.format("%" + widths[c] + "s", columns.get(c)));
    }
    s.append('\n');
    for (int r = 0; r < rows.size(); r++) {
      s.append(String.format("%-" + first + "s", rows.get(r)));
      for (int c = 0; c < columns.size(); c++) {
        s.append(String.format("%" + widths[c] + "s", cells.get(r).get(c)));
      }
      s.append('\n');
    }
    return s.toString();
  }

  /** The whole title of the section {@code key} names, as {@link RawTable} finds it. */
  private static String title(List<String> titles, String key) {
    int child = key.indexOf(" :: ");
    int from = 0;
    if (child >= 0) {
      String parent = key.substring(0, child);
      from = titles.indexOf(titles.stream().filter(t -> t.startsWith(parent)).findFirst().orElseThrow()) + 1;
    }
    String start = child >= 0 ? key.substring(child + 4) : key;
    return titles.subList(from, titles.size()).stream().filter(t -> t.startsWith(start)).findFirst().orElse(key);
  }

  /** A text cell over runs: its one value, or each distinct value with how many runs gave it. */
  static String texts(List<String> perRun) {
    Map<String, Integer> counts = new LinkedHashMap<>();
    perRun.forEach(v -> counts.merge(v.strip(), 1, Integer::sum));
    if (counts.size() == 1) {
      return counts.keySet().iterator().next();
    }
    List<String> each = new ArrayList<>();
    counts.forEach((v, n) -> each.add(v + " (" + n + " of " + perRun.size() + ")"));
    return String.join("; ", each);
  }
}
