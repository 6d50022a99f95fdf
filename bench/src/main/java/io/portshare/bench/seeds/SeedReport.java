package io.portshare.bench.seeds;

import io.portshare.bench.results.Results;
import io.portshare.bench.results.ResultsText;
import io.portshare.bench.results.ResultsWriter;
import io.portshare.bench.results.Table;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The seeds' report, in the files every run writes (table.txt, results.json, results.csv,
 * report.html): per seed its published table then this machine's in the same shape, and at the top
 * the effects, each published figure beside this run's and the verdict. The effects and what was
 * scaled are also in the run's metadata, so {@code report DIR} makes them again from results.json.
 */
public final class SeedReport {

  public static final String TITLE = "portshare: the five source experiments, published and on this machine";

  /** The metadata key of an effect's line, before its seed. */
  static final String EFFECT = "effect, seed ";

  private SeedReport() {}

  static void write(Results results, Path dir) throws IOException {
    ResultsWriter.writeAll(results, text(results), dir);
  }

  /** The run's table.txt: the effects, as its metadata keeps them, then the tables. */
  public static String text(Results results) {
    List<Effect> effects = new ArrayList<>();
    results.meta().forEach((key, line) -> {
      if (key.startsWith(EFFECT)) {
        effects.add(Effect.fromLine(key.substring(EFFECT.length()).split(" ")[0], line));
      }
    });
    return text(effects) + "\n" + ResultsText.of(results);
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
