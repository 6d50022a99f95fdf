package io.portshare.bench.cpu;

import io.portshare.bench.results.ClientBound;

/**
 * CPU seconds the client (the load generator) and the server spent over a measured window of
 * {@code wallSeconds}; {@code server} is NaN when the server's processes are not on this machine.
 * {@code clientCores} is how many cores the client can use at most (its threads, within the CPUs).
 */
public record CpuSpent(double client, double server, double wallSeconds, int clientCores) {

  public static CpuSpent unknown(double wallSeconds) {
    return new CpuSpent(Double.NaN, Double.NaN, wallSeconds, 1);
  }

  public boolean serverKnown() {
    return !Double.isNaN(server);
  }

  /** Share of its cores the client kept busy, 0..1 (NaN if unknown). */
  public double clientUtilisation() {
    return wallSeconds <= 0 ? Double.NaN : client / (wallSeconds * clientCores);
  }

  /** The run measured the client more than the server ({@link ClientBound}); unknown client CPU claims nothing. */
  public boolean clientBound() {
    return !Double.isNaN(client)
        && ClientBound.judge(client, server, wallSeconds, clientCores, Runtime.getRuntime().availableProcessors());
  }

  /** Microseconds of CPU per operation. */
  public static double perOpMicros(double cpuSeconds, long operations) {
    return operations <= 0 || Double.isNaN(cpuSeconds) ? Double.NaN : cpuSeconds * 1e6 / operations;
  }
}
