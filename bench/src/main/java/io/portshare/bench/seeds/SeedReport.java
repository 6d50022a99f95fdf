package io.portshare.bench.seeds;

import io.portshare.bench.results.Results;
import io.portshare.bench.results.ResultsText;
import io.portshare.bench.results.ResultsWriter;
import io.portshare.bench.results.Table;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The seeds' report, in the files every run writes (table.txt, results.json, results.csv,
 * report.html): per seed its published table then this machine's in the same shape, and at the top
 * the effects, each published figure beside this run's and the verdict. The effects and what was
 * scaled are also in the run's metadata, so {@code report DIR} makes them again from results.json.
 */
final class SeedReport {

  static final String TITLE = "portshare: the five source experiments, published and on this machine";

  private SeedReport() {}

  static void write(Results results, List<Effect> effects, Path dir) throws IOException {
    ResultsWriter.writeAll(results, dir);
    Path text = dir.resolve("table.txt");
    Files.writeString(text, text(effects) + "\n" + Files.readString(text, StandardCharsets.UTF_8),
        StandardCharsets.UTF_8);
  }

  /** The effects as a block of text: seed, claim, published figure, this run's, verdict and why. */
  static String text(List<Effect> effects) {
    StringBuilder s = new StringBuilder("Effects the seeds found, and whether this run shows them\n");
    for (Effect e : effects) {
      s.append("  ").append(e.claim()).append('\n')
          .append("      published: ").append(e.published()).append('\n')
          .append("      this run:  ").append(e.here()).append('\n')
          .append("      ").append(e.verdict().toUpperCase(java.util.Locale.ROOT))
          .append(e.why() == null || e.why().isEmpty() ? "" : " (" + e.why() + ")").append('\n');
    }
    return s.toString();
  }

  /** The tables for the terminal, published beside this run's. */
  static String tables(Results results) {
    StringBuilder s = new StringBuilder();
    for (Table t : results.tables()) {
      s.append(ResultsText.table(t)).append('\n');
    }
    return s.toString();
  }
}
