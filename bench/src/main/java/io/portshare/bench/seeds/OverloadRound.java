package io.portshare.bench.seeds;

import io.portshare.bench.cpu.CpuSpent;
import io.portshare.bench.latency.Verdict;
import io.portshare.bench.load.ErrorKind;
import io.portshare.bench.load.Measurement;
import io.portshare.bench.results.Metric;
import io.portshare.bench.results.Round;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One run of seed 004 as a round of its table: the rate asked and reached, answers, errors split
 * into the four kinds httperf's report kept apart, p99 from the due time, and both sides' CPU. The
 * round is flagged (the table's {@code !}) when the generator, not the server, held the rate: by
 * the latency bench's rule ({@link Verdict#clientBusy}: the generator kept 90% or more of its
 * cores busy) or the benchmark's ({@link CpuSpent#clientBound}: it spent more CPU than the server,
 * or saturated its threads). Falling short of the rate asked is not a flag here: past the maximum
 * that is the server, the point of the seed.
 */
final class OverloadRound {

  static final List<Metric> METRICS = List.of(
      new Metric("requestsPerSecond", "requests/s answered", 0),
      new Metric("asked", "rate asked /s", 0),
      new Metric("answered", "answered", 0),
      new Metric("errors", "errors", 0),
      new Metric("timeouts", "timeouts", 0),
      new Metric("connect", "connect errors", 0),
      new Metric("read", "read errors", 0),
      new Metric("non2xx", "non-2xx", 0),
      new Metric("p99Ms", "p99 ms", 2),
      new Metric("serverCores", "server CPU cores", 2),
      new Metric("clientCores", "client CPU cores", 2));

  /** The generator's error kinds by the column that counts them (timeouts, connect, read, non-2xx). */
  static String column(ErrorKind kind) {
    return switch (kind) {
      case TIMEOUT, UNANSWERED -> "timeouts";
      case CONNECT_REFUSED -> "connect";
      case STATUS -> "non2xx";
      case RESET, CLOSED, SHORT_BODY, WRONG_PAYLOAD, OTHER -> "read";
    };
  }

  /** Errors by column, from the generator's counts by {@link ErrorKind#label()}; every column present. */
  static Map<String, Long> split(Map<String, Long> byLabel) {
    Map<String, Long> out = new LinkedHashMap<>();
    for (String c : List.of("timeouts", "connect", "read", "non2xx")) {
      out.put(c, 0L);
    }
    for (ErrorKind k : ErrorKind.values()) {
      out.merge(column(k), byLabel.getOrDefault(k.label(), 0L), Long::sum);
    }
    return out;
  }

  /** Whether the generator held the rate, and why; {@code cpu} is the window's. */
  record Flag(boolean clientHeld, String reasons) {

    static Flag of(long asked, double reached, CpuSpent cpu) {
      Verdict v = new Verdict(asked, reached, cpu.clientUtilisation(), Double.NaN);
      List<String> why = new ArrayList<>();
      if (v.clientBusy()) {
        why.add(String.format(Locale.ROOT, "client CPU %.0f%% of its cores", 100 * cpu.clientUtilisation()));
      }
      if (cpu.clientBound() && !v.clientBusy()) {
        why.add(String.format(Locale.ROOT, "client CPU %.2f s against the server's %.2f s", cpu.client(),
            cpu.server()));
      }
      return new Flag(!why.isEmpty(), String.join(", ", why));
    }
  }

  private OverloadRound() {}

  /** The round of a run that asked {@code asked} requests/s (0: the closed loop). */
  static Round of(long asked, Measurement m) {
    Map<String, Double> v = new LinkedHashMap<>();
    v.put("requestsPerSecond", m.perSecond());
    v.put("asked", (double) asked);
    v.put("answered", (double) m.operations());
    v.put("errors", (double) m.errorCount());
    split(m.errors()).forEach((k, n) -> v.put(k, (double) n));
    if (m.latency().count() > 0) {
      v.put("p99Ms", m.latency().p99() / 1000.0);
    }
    CpuSpent cpu = m.cpu();
    if (cpu.wallSeconds() > 0) {
      v.put("serverCores", cpu.server() / cpu.wallSeconds());
      v.put("clientCores", cpu.client() / cpu.wallSeconds());
    }
    // A figure not measured is left out (the table shows "-"): the raw file holds numbers only.
    v.values().removeIf(d -> d.isNaN());
    return new Round(v, m.errorCount(), Flag.of(asked, m.perSecond(), cpu).clientHeld());
  }
}
