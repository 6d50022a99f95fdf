package io.portshare.bench.load;

import io.portshare.bench.cpu.CpuSpent;
import java.util.Map;
import java.util.TreeMap;

/**
 * One measured run of one cell, the unit every table is made of (RPC transactions, static-file
 * requests): operations completed in the window, their latency, errors by kind, and the CPU client
 * and server spent on them, from which the run knows whether it measured its own client.
 */
public record Measurement(long operations, double seconds, LatencySummary latency, Map<String, Long> errors,
    CpuSpent cpu) {

  public Measurement {
    errors = Map.copyOf(errors);
  }

  public double perSecond() {
    return seconds <= 0 ? 0 : operations / seconds;
  }

  public long errorCount() {
    return errors.values().stream().mapToLong(Long::longValue).sum();
  }

  /** Errors in label order, for display. */
  public Map<String, Long> sortedErrors() {
    return new TreeMap<>(errors);
  }

  public double clientCpuMicrosPerOp() {
    return CpuSpent.perOpMicros(cpu.client(), operations);
  }

  public double serverCpuMicrosPerOp() {
    return CpuSpent.perOpMicros(cpu.server(), operations);
  }

  public boolean clientBound() {
    return cpu.clientBound();
  }
}
