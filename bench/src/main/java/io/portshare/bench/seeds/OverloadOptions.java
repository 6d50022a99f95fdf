package io.portshare.bench.seeds;

import java.time.Duration;
import java.util.List;
import picocli.CommandLine.Option;

/** Seed 004's options: the overload ladder of {@link OverloadPlan}. */
final class OverloadOptions {

  /** The published run's length: 30,000 connections at 3,000/s. */
  static final Duration PUBLISHED_WINDOW = Duration.ofSeconds(10);

  @Option(names = "--overload-shares", split = ",", defaultValue = "100,125,150",
      description = "004: open-loop rates as percent of the faster transport's closed-loop maximum, measured first in "
          + "the same run (default: ${DEFAULT-VALUE})")
  List<Integer> shares;

  @Option(names = "--overload-duration",
      description = "004: measured window of each run (default: 5s; --published: 10s, the published run's length)")
  Duration duration;

  @Option(names = "--overload-warmup", defaultValue = "1s",
      description = "004: unmeasured load before each window (default: ${DEFAULT-VALUE})")
  Duration warmup;

  @Option(names = "--overload-connections", defaultValue = "64",
      description = "004: connection slots of the generator, one request per connection (default: ${DEFAULT-VALUE})")
  int connections;

  @Option(names = "--overload-client-loops", defaultValue = "1",
      description = "004: the generator's event loops (default: ${DEFAULT-VALUE})")
  int clientLoops;

  @Option(names = "--overload-timeout", defaultValue = "1s",
      description = "004: a request without progress this long is a timeout, as httperf --timeout 1 "
          + "(default: ${DEFAULT-VALUE})")
  Duration timeout;

  OverloadPlan plan(boolean published, int rounds) {
    Duration window = duration != null ? duration : published ? PUBLISHED_WINDOW : Duration.ofSeconds(5);
    return new OverloadPlan(shares, warmup, window, connections, clientLoops, timeout, rounds);
  }
}
