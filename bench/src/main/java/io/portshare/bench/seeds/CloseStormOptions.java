package io.portshare.bench.seeds;

import java.time.Duration;
import java.util.List;
import picocli.CommandLine.Option;

/** Seed 000's options: the connections, the wrk processes that share them, the files and each run's length. */
final class CloseStormOptions {

  @Option(names = "--connections", defaultValue = "30000",
      description = "000: concurrent connections in all (default: ${DEFAULT-VALUE})")
  int connections;

  /**
   * Connections one wrk process (one destination address) is given by default. connect() picks its
   * local port from about half the ephemeral range first (ports of one parity: 14,116 of 28,232 here);
   * past that, every connect() scans the range. Measured on a 2-CPU machine, one wrk process
   * with Connection: close: 10,000 connections 6,885 requests/s; 15,000 connections 376 requests/s,
   * the process in system time for 7.0 s of its 7.3 s.
   */
  static final int CONNECTIONS_PER_WRK = 7_500;
  /** The most connections one wrk process may be given: below the half range, with room for TIME_WAIT. */
  static final int MAX_CONNECTIONS_PER_WRK = 10_000;

  @Option(names = "--wrk-processes",
      description = "000: wrk processes sharing the connections, one thread and one 127.0.0.x destination each "
          + "(default: one per " + CONNECTIONS_PER_WRK + " connections; at most " + MAX_CONNECTIONS_PER_WRK
          + " connections each)")
  Integer wrkProcessesGiven;

  @Option(names = "--sizes", split = ",", defaultValue = "1k.bin,8k.bin,16k.bin,24k.bin",
      description = "000: files (default: ${DEFAULT-VALUE})")
  List<String> sizes;

  @Option(names = "--duration", description = "000: each wrk run (default: 10s; --published: 2m)")
  Duration duration;

  @Option(names = "--wrk-timeout",
      description = "000: wrk's --timeout; a request unanswered that long counts as a timeout (default: the run's "
          + "length + 30s, so that every response, however late, counts in the latency; the storm cell uses 5s)")
  Duration wrkTimeout;

  /** The wrk processes, given or one per {@link #CONNECTIONS_PER_WRK}; refused past the most one may hold. */
  int wrkProcesses() {
    if (connections < 1) {
      throw new IllegalArgumentException("invalid value for --connections: " + connections + "; expected at least 1");
    }
    int n = wrkProcessesGiven != null ? wrkProcessesGiven : (connections + CONNECTIONS_PER_WRK - 1) / CONNECTIONS_PER_WRK;
    if (n < 1) {
      throw new IllegalArgumentException("invalid value for --wrk-processes: " + n + "; expected at least 1");
    }
    if ((connections + n - 1) / n > MAX_CONNECTIONS_PER_WRK) {
      throw new IllegalArgumentException("invalid value for --wrk-processes: " + n + "; " + connections
          + " connections need at least " + (connections + MAX_CONNECTIONS_PER_WRK - 1) / MAX_CONNECTIONS_PER_WRK
          + " processes (one destination gives connect() about half the ephemeral ports)");
    }
    return n;
  }

  Duration duration(boolean published) {
    Duration d = duration != null ? duration : published ? Duration.ofMinutes(2) : Duration.ofSeconds(10);
    if (d.toSeconds() < 1) {
      throw new IllegalArgumentException("invalid value for --duration: " + d + "; wrk needs at least 1s");
    }
    return d;
  }

  List<String> sizes() {
    for (String s : sizes) {
      if (!s.matches("\\d+k\\.bin")) {
        throw new IllegalArgumentException("invalid value for --sizes: \"" + s + "\"; expected Nk.bin");
      }
    }
    return sizes;
  }

  /**
   * wrk's timeout: given, or the run's length and 30 s more. At 30,000 connections on 2 CPUs responses
   * take seconds, and wrk's own default of 2 s would drop the slowest from the figures.
   */
  Duration wrkTimeout(Duration runLength) {
    Duration t = wrkTimeout != null ? wrkTimeout : runLength.plusSeconds(30);
    if (t.toSeconds() < 1) {
      throw new IllegalArgumentException("invalid value for --wrk-timeout: " + t + "; wrk needs at least 1s");
    }
    return t;
  }
}
