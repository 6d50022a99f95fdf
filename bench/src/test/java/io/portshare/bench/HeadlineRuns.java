package io.portshare.bench;

import io.portshare.kit.Repository;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The committed runs README's headline quotes: each combined table's directory under bench/report,
 * and the three runs it was combined from. The ledger's and the storm's runs keep their results.json,
 * the latency runs their latency.csv.
 */
public final class HeadlineRuns {

  public static final List<String> COMBINATIONS = List.of("ledger/headline/apart", "ledger/headline/shared",
      "ledger/headline/per-connection", "storm/runs", "latency/runs", "latency/share-of-each");

  private HeadlineRuns() {}

  public static Path combination(String name) {
    return Repository.root().resolve("bench/report").resolve(name);
  }

  /** Every run of every combination, run-1 to run-3. */
  public static Stream<Path> runs() {
    return COMBINATIONS.stream().flatMap(c -> Stream.of("run-1", "run-2", "run-3").map(r -> combination(c).resolve(r)));
  }

  /** The raw file {@code report DIR} makes a run's tables again from. */
  public static String rawFile(Path run) {
    return run.startsWith(combination("latency")) ? "latency.csv" : "results.json";
  }
}
