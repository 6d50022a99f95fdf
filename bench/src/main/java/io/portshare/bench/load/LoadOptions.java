package io.portshare.bench.load;

import java.nio.file.Path;
import java.time.Duration;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Options every RPC run shares. */
public final class LoadOptions {

  @Option(names = "--connections", defaultValue = "32", description = "concurrent connections (default: ${DEFAULT-VALUE})")
  int connections;

  @Option(names = "--duration", defaultValue = "5s", description = "measured time per cell (default: ${DEFAULT-VALUE})")
  Duration duration;

  @Option(names = "--warmup", defaultValue = "2s", description = "time before each cell that is not measured (default: ${DEFAULT-VALUE})")
  Duration warmup;

  @Option(names = "--rate", defaultValue = "0",
      description = "open loop: total requests/s, latency from the intended send time; 0 = closed loop (default)")
  long rate;

  @Option(names = "--loops", description = "event loops of the load generator (default: CPUs)")
  Integer loops;

  @Mixin
  CLoadClient cLoad = new CLoadClient();

  @Option(names = "--timeout", defaultValue = "5s", description = "connect timeout, and reply timeout with nothing arriving (default: ${DEFAULT-VALUE})")
  Duration timeout;

  /** The C reference client's binary. */
  public Path cLoad() {
    return cLoad.path();
  }

  public int eventLoops() {
    return loops != null ? loops : Runtime.getRuntime().availableProcessors();
  }

  public LoadSpec spec(String host, int port, int size, int perConnection) {
    if (connections < 1) {
      throw new IllegalArgumentException("invalid value for --connections: " + connections + "; expected at least 1");
    }
    if (eventLoops() < 1) {
      throw new IllegalArgumentException("invalid value for --loops: " + eventLoops() + "; expected at least 1");
    }
    return new LoadSpec(host, port, connections, perConnection, size, warmup, duration, rate, eventLoops(), timeout);
  }

  public static String[] hostPort(String target) {
    return hostPort("--target", target);
  }

  /** {@code HOST:PORT} given to {@code option}, split; a bad one is refused naming the option. */
  public static String[] hostPort(String option, String target) {
    int colon = target.lastIndexOf(':');
    if (colon <= 0 || colon == target.length() - 1) {
      throw new IllegalArgumentException("invalid value for " + option + ": \"" + target + "\"; expected HOST:PORT");
    }
    String port = target.substring(colon + 1);
    try {
      int p = Integer.parseInt(port);
      if (p < 1 || p > 65535) {
        throw new NumberFormatException();
      }
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("invalid value for " + option + ": \"" + target + "\"; port must be 1..65535");
    }
    return new String[] {target.substring(0, colon), port};
  }
}
