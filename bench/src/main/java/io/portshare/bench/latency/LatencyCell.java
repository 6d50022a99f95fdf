package io.portshare.bench.latency;

import io.portshare.bench.load.Measurement;

/**
 * One measured run: a column, a server, the share of the floor's closed-loop maximum asked
 * ({@code share} 0 marks the closed-loop run itself, {@code asked} 0), what was reached, the latency
 * distribution from the due times, errors by kind, both sides' CPU, the verdict and the server's GC
 * pauses in the window ({@link GcPauses#NONE} where not logged).
 */
public record LatencyCell(String workload, String server, int share, long asked, Measurement measurement,
    Percentiles latency, Verdict verdict, GcPauses gc) {

  public LatencyCell(String workload, String server, int share, long asked, Measurement measurement,
      Percentiles latency, Verdict verdict) {
    this(workload, server, share, asked, measurement, latency, verdict, GcPauses.NONE);
  }

  public boolean closedLoop() {
    return share == 0;
  }

  public String shareLabel() {
    return closedLoop() ? "closed" : share + "%";
  }

  /** Cores the generator kept busy over the window (CPU seconds per wall second). */
  public double clientCores() {
    return measurement.cpu().client() / measurement.cpu().wallSeconds();
  }

  /** Cores the server kept busy over the window; NaN when unknown. */
  public double serverCores() {
    return measurement.cpu().server() / measurement.cpu().wallSeconds();
  }
}
