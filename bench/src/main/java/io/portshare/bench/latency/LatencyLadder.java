package io.portshare.bench.latency;

import io.portshare.bench.cpu.CpuProbe;
import io.portshare.bench.ledger.Contender;
import io.portshare.bench.load.LoadGenerator;
import io.portshare.bench.load.LoadSpec;
import io.portshare.bench.load.Measurement;
import io.portshare.bench.load.Progress;
import io.portshare.bench.staticfiles.Loopback;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * The runs of one column against its servers (the floor first): each server warmed and then
 * measured in a closed loop (the floor's maximum sets the rates, or each server's own capacity
 * ({@link RateBase}); the best any server reached is the generator's own floor), then open loops at
 * each share, up the ladder past 100% until a rung counts errors. Every run has a loopback address
 * of its own; every open-loop histogram is kept as a file. A server with a GC log has its pauses of
 * each window counted beside the cell's percentiles.
 */
final class LatencyLadder {

  record Plan(List<Integer> shares, RateBase shareOf, List<Integer> past, Duration warmup, Duration duration,
      Duration serverWarmup, int connections, int clientLoops, Duration timeout) {}

  private final Plan plan;
  private final Path histograms;
  private final PrintStream log;
  private final Loopback destinations = new Loopback(10);
  private final List<LatencyCell> cells = new ArrayList<>();

  LatencyLadder(Plan plan, Path histograms, PrintStream log) {
    this.plan = plan;
    this.histograms = histograms;
    this.log = log;
  }

  List<LatencyCell> cells() {
    return cells;
  }

  /** The column's runs against {@code servers}; the GC pauses are counted for the rows {@code gcLogs} has a log of. */
  void climb(LatencyWorkload w, List<Contender> servers, Map<String, GcLog> gcLogs) throws IOException {
    for (Contender c : servers) {
      if (!plan.serverWarmup().isZero()) {
        log.printf("warming %s on %s for %d ms%n", c.name(), w.label(), plan.serverWarmup().toMillis());
        run(w, c, null, 0, Duration.ZERO, plan.serverWarmup());
      }
    }
    double generatorFloor = 0;
    Map<Contender, Measurement> closed = new HashMap<>();
    for (Contender c : servers) {
      Run r = run(w, c, gcLogs.get(c.name()), 0, plan.warmup(), plan.duration());
      double reached = r.measurement().perSecond();
      closed.put(c, r.measurement());
      generatorFloor = Math.max(generatorFloor, reached);
      cells.add(new LatencyCell(w.label(), c.name(), 0, 0, r.measurement(), Percentiles.of(r.latency()),
          new Verdict(0, reached, r.measurement().cpu().clientUtilisation(), Double.NaN), r.gc()));
      log.printf("%s %s closed loop: %.0f/s, client CPU %.2f cores%n", w.label(), c.name(), reached,
          cells.get(cells.size() - 1).clientCores());
    }
    List<Integer> rungs = new ArrayList<>(plan.shares());
    rungs.addAll(plan.past());
    Map<Contender, Double> base = new HashMap<>();
    for (Contender c : servers) {
      base.put(c, plan.shareOf().base(c.name(), closed.get(c), closed.get(servers.get(0))));
    }
    for (int share : rungs) {
      boolean errors = false;
      for (Contender c : servers) {
        long rate = Math.round(base.get(c) * share / 100);
        if (rate < 1) {
          log.printf("%s %s: %.0f/s is %s, no rate at %d%%%n", w.label(), c.name(), base.get(c),
              plan.shareOf().describes(), share);
          continue;
        }
        Run r = run(w, c, gcLogs.get(c.name()), rate, plan.warmup(), plan.duration());
        Verdict v = new Verdict(rate, r.measurement().perSecond(), r.measurement().cpu().clientUtilisation(), generatorFloor);
        LatencyCell cell = new LatencyCell(w.label(), c.name(), share, rate, r.measurement(), Percentiles.of(r.latency()),
            v, r.gc());
        cells.add(cell);
        keep(cell, r.recorded());
        errors |= r.measurement().errorCount() > 0;
        log.printf(Locale.ROOT, "%s %s %d%% (%d/s): reached %.0f/s, p99 %d us, max %d us, errors %d%s%s%n", w.label(),
            c.name(), share, rate, r.measurement().perSecond(), cell.latency().p99(), cell.latency().max(),
            r.measurement().errorCount(), r.gc().known() ? String.format(Locale.ROOT, ", GC pauses %d (max %.1f ms)",
                r.gc().count(), r.gc().maxMs()) : "", v.flagged() ? " FLAGGED: " + v.reasons() : "");
      }
      if (share > 100 && errors) {
        break; // past the floor's maximum, the first rung with errors is the last
      }
    }
  }

  /** A run as the generator recorded it, and the server's GC pauses in its window. */
  private record Run(LoadGenerator.Recorded recorded, GcPauses gc) {
    Measurement measurement() {
      return recorded.measurement();
    }

    Histogram latency() {
      return recorded.latency();
    }
  }

  private Run run(LatencyWorkload w, Contender c, GcLog gcLog, long rate, Duration warmup, Duration duration)
      throws IOException {
    String host = destinations.next();
    LoadSpec spec = new LoadSpec(host, c.port(), plan.connections(), w.perConnection(), w.size(), warmup, duration, rate,
        plan.clientLoops(), plan.timeout());
    WindowedProbe window = new WindowedProbe(CpuProbe.processes(c.pids()));
    LoadGenerator.Recorded r = LoadGenerator.run(spec, w.wire(host), Progress.none(), window);
    // Read after the run (its answers drained), so the log's file is not read while the window is measured.
    GcPauses gc = gcLog == null ? GcPauses.NONE : gcLog.pauses(window.startMillis(), window.endMillis());
    return new Run(r, gc);
  }

  /** The run's whole histogram, as HdrHistogram's percentile distribution text (values in microseconds). */
  private void keep(LatencyCell cell, LoadGenerator.Recorded r) throws IOException {
    Files.createDirectories(histograms);
    String name = (cell.workload() + "-" + cell.server() + "-" + cell.share()).replaceAll("[^A-Za-z0-9.-]+", "_") + ".hgrm";
    try (PrintStream out = new PrintStream(Files.newOutputStream(histograms.resolve(name)), false, "UTF-8")) {
      out.printf("# %s, %s, %d%% of %s: %d/s asked, %.1f/s reached; microseconds%n",
          cell.workload(), cell.server(), cell.share(), plan.shareOf().describes(), cell.asked(),
          cell.measurement().perSecond());
      r.latency().outputPercentileDistribution(out, 5, 1.0);
    }
  }
}
