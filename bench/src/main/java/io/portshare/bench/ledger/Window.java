package io.portshare.bench.ledger;

import io.portshare.runtime.Units;
import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * The options of a command that loads each server in measured windows: how long a window is, the
 * unmeasured load before it, the warm-up per server and column, and the connections. Each command
 * gives its own defaults; the help shows them.
 */
public final class Window {

  @Option(names = "--duration", description = "measured per window (default: ${DEFAULT-VALUE})")
  String duration;

  @Option(names = "--warmup", description = "unmeasured load before each window (default: ${DEFAULT-VALUE})")
  String warmup;

  @Option(names = "--server-warmup",
      description = "unmeasured load per server and column before its first window, for the JIT (default: ${DEFAULT-VALUE})")
  String serverWarmup;

  @Option(names = "--connections",
      description = "client connections; with one request per connection, slots of one connection at a time "
          + "(default: ${DEFAULT-VALUE})")
  int connections;

  public Window(String duration, String warmup, String serverWarmup, int connections) {
    this.duration = duration;
    this.warmup = warmup;
    this.serverWarmup = serverWarmup;
    this.connections = connections;
  }

  public Duration duration() {
    return parse("--duration", duration);
  }

  public Duration warmup() {
    return parse("--warmup", warmup);
  }

  public Duration serverWarmup() {
    return parse("--server-warmup", serverWarmup);
  }

  /** The connections, 1 to 10,000; else the one line naming the option and its value. */
  public int connections() {
    if (connections < 1 || connections > 10_000) {
      throw new IllegalArgumentException("invalid value for --connections: " + connections + "; expected 1..10000");
    }
    return connections;
  }

  private static Duration parse(String flag, String value) {
    try {
      return Units.duration(value);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("invalid value for " + flag + ": " + value + "; expected "
          + Units.DURATION_EXAMPLES);
    }
  }

  /** A short run's: 1 s windows, 500 ms before each, 2 s per server and column. */
  public void quick() {
    duration = "1s";
    warmup = "500ms";
    serverWarmup = "2s";
  }
}
