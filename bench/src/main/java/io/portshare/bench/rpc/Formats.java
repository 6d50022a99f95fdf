package io.portshare.bench.rpc;

import io.portshare.bench.cpu.CpuSpent;
import io.portshare.bench.load.Measurement;
import java.util.Locale;
import java.util.Map;

/** How figures of RPC runs are written for people: rates, milliseconds, CPU microseconds, errors. */
public final class Formats {

  private Formats() {}

  /** 10^4 transactions/s, the seed table's unit, two decimals. */
  public static String rate(double transPerSecond) {
    return String.format(Locale.ROOT, "%.2f", transPerSecond / 1e4);
  }

  /** Microseconds shown as milliseconds with three significant figures or so. */
  public static String millis(long micros) {
    double ms = micros / 1000.0;
    if (ms < 10) {
      return String.format(Locale.ROOT, "%.2f", ms);
    }
    if (ms < 100) {
      return String.format(Locale.ROOT, "%.1f", ms);
    }
    return String.format(Locale.ROOT, "%.0f", ms);
  }

  /** CPU microseconds, one decimal, or "?" when not known. */
  public static String micros(double us) {
    return Double.isNaN(us) ? "?" : String.format(Locale.ROOT, "%.1f", us);
  }

  /** One run's CPU line: client and server per operation, the client's share of its cores, the flag. */
  public static String cpuText(Measurement r) {
    CpuSpent c = r.cpu();
    return String.format(Locale.ROOT, "client %s, server %s (client busy %.0f%% of %d core(s))%s",
        micros(r.clientCpuMicrosPerOp()), micros(r.serverCpuMicrosPerOp()), c.clientUtilisation() * 100,
        c.clientCores(), r.clientBound() ? "  CLIENT-BOUND: this figure measures the load generator" : "");
  }

  public static String errorText(Map<String, Long> errors) {
    StringBuilder s = new StringBuilder();
    errors.forEach((k, v) -> s.append(s.length() == 0 ? "" : ", ").append(v).append(' ').append(k));
    return s.length() == 0 ? "none" : s.toString();
  }
}
