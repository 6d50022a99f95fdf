package io.portshare.bench.results;

/**
 * When a measurement says more about the load generator than the server: the client used more CPU
 * per operation than the server, or kept its threads (or all CPUs) nearly busy for the whole run.
 */
public final class ClientBound {

  /** A client at 90% of its thread capacity is taken as saturated. */
  static final double SATURATED = 0.9;

  private ClientBound() {}

  /**
   * @param clientCpuSeconds CPU time the client used in the run
   * @param serverCpuSeconds CPU time the server used in the same run
   * @param wallSeconds the run's length
   * @param clientThreads threads the client ran; capped at {@code cpus}
   */
  public static boolean judge(double clientCpuSeconds, double serverCpuSeconds, double wallSeconds, int clientThreads,
      int cpus) {
    if (clientCpuSeconds > serverCpuSeconds) {
      return true;
    }
    int lanes = Math.max(1, Math.min(clientThreads, cpus));
    return wallSeconds > 0 && clientCpuSeconds / wallSeconds >= SATURATED * lanes;
  }
}
