package io.portshare.bench.seeds;

import io.portshare.bench.load.LoadGenerator;
import io.portshare.bench.load.LoadSpec;
import io.portshare.bench.load.Measurement;
import io.portshare.bench.load.Progress;
import io.portshare.bench.load.Wire;
import io.portshare.bench.results.Cell;
import io.portshare.bench.results.Round;
import io.portshare.bench.results.Row;
import io.portshare.bench.results.Table;
import io.portshare.bench.staticfiles.Peer;
import io.portshare.bench.staticfiles.Site;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Seed 004: one request per connection on the 4.1 KB index, past saturation, two event mechanisms
 * of the same server side by side: static-server {@code --transport epoll} and {@code --transport
 * io_uring} (today's newer mechanism, as kevent was then). Each round measures both transports'
 * closed-loop maximum, then offers both the same open-loop rates ({@link OverloadPlan}) with the
 * repository's generator, the order alternating; each cell counts answers and errors by kind, the
 * rate reached, p99 and both sides' CPU ({@link OverloadRound}). Where the kernel refuses io_uring
 * the server falls back to epoll: that column is then not measured, and the table says so.
 */
final class ConnectionChurn {

  static final String EPOLL = "static-server epoll";
  static final String IO_URING = "static-server io_uring";
  static final String CLOSED = "closed loop";
  static final String PATH = HttperfRounds.PATH;
  static final String REFUSED = "io_uring refused by this kernel (static-server fell back to ";

  private final Lab lab;

  ConnectionChurn(Lab lab) {
    this.lab = lab;
  }

  /** The table; io_uring's column is missing, and the title and every row say why, where the kernel refused it. */
  Table run(Map<String, String> meta) throws IOException, InterruptedException {
    SeedPlan plan = lab.plan;
    OverloadPlan load = plan.overload();
    Path site = lab.scratch.resolve("site-004");
    Site.create(site, List.of(PATH), plan.staticJar());
    long size = Files.size(site.resolve(PATH));
    String w = Integer.toString(plan.workers());
    List<Peer> servers = new ArrayList<>();
    String refused = null;
    try {
      servers.add(lab.startStatic(EPOLL, site, List.of("--instances", w, "--transport", "epoll")));
      Peer uring = lab.startStatic(IO_URING, site, List.of("--instances", w, "--transport", "io_uring"));
      String transport = Lab.transport(uring);
      meta.put("seed 004 io_uring", "static-server asked for io_uring runs on " + transport);
      if (!transport.equals("io_uring")) {
        refused = REFUSED + transport + "): not measured";
        lab.log.println("seed 004: " + refused);
        uring.close();
      } else {
        servers.add(uring);
      }
      for (Peer p : servers) {
        lab.check(p, site, List.of(PATH));
        lab.warm(p, List.of(PATH));
      }
      // row label -> column -> rounds
      Map<String, Map<String, List<Round>>> cells = new LinkedHashMap<>();
      for (int round = 0; round < load.rounds(); round++) {
        Map<String, Double> maxima = new LinkedHashMap<>();
        for (Peer p : OverloadPlan.order(servers, round, 0)) {
          Measurement m = measure(p, 0, size);
          maxima.put(p.name(), m.perSecond());
          add(cells, CLOSED, p.name(), OverloadRound.of(0, m), m);
        }
        List<OverloadPlan.Rung> rungs = load.rungs(maxima.getOrDefault(EPOLL, Double.NaN),
            maxima.getOrDefault(IO_URING, Double.NaN));
        for (int i = 0; i < rungs.size(); i++) {
          OverloadPlan.Rung rung = rungs.get(i);
          for (Peer p : OverloadPlan.order(servers, round, i + 1)) {
            Measurement m = measure(p, rung.rate(), size);
            add(cells, rung.label(), p.name(), OverloadRound.of(rung.rate(), m), m);
          }
        }
      }
      List<Row> rows = new ArrayList<>();
      List<String> labels = new ArrayList<>(List.of(CLOSED));
      load.shares().forEach(s -> labels.add(s + "%"));
      for (String label : labels) {
        Map<String, List<Round>> byColumn = cells.getOrDefault(label, Map.of());
        List<Cell> row = new ArrayList<>();
        byColumn.forEach((column, rounds) -> row.add(new Cell(column, rounds)));
        String note = row.isEmpty() ? "not run: the closed-loop maxima gave no rate" : refused;
        rows.add(new Row(label, row, note));
      }
      return new Table("004", title(plan, refused), OverloadRound.METRICS, List.of(EPOLL, IO_URING), rows, null);
    } finally {
      for (Peer p : servers) {
        p.close();
      }
    }
  }

  static String title(SeedPlan plan, String refused) {
    OverloadPlan o = plan.overload();
    return "Seed 004 on this machine: GET /" + PATH + " with Connection: close, " + plan.workers()
        + " workers per server; each transport's closed-loop maximum, then open loop at " + o.shares()
        + "% of the faster maximum, " + o.connections() + " connection slots, " + o.duration().toMillis()
        + " ms windows, timeout " + o.timeout().toMillis() + " ms"
        + (refused == null ? "" : "; " + refused);
  }

  private void add(Map<String, Map<String, List<Round>>> cells, String row, String column, Round r, Measurement m) {
    cells.computeIfAbsent(row, k -> new LinkedHashMap<>()).computeIfAbsent(column, k -> new ArrayList<>()).add(r);
    OverloadRound.Flag flag = OverloadRound.Flag.of((long) r.value("asked"), m.perSecond(), m.cpu());
    lab.log.printf(Locale.ROOT, "  004 %-12s %-24s asked %7.0f/s reached %8.1f/s  errors %s  p99 %.2f ms%s%n", row,
        column, r.value("asked"), m.perSecond(), OverloadRound.split(m.errors()), r.value("p99Ms"),
        flag.clientHeld() ? "  FLAGGED, the client held the rate: " + flag.reasons() : "");
  }

  /** One run from a fresh 127.0.0.x: closed loop at {@code rate} 0, else open loop at {@code rate}/s. */
  private Measurement measure(Peer p, long rate, long size) {
    OverloadPlan o = lab.plan.overload();
    String host = lab.address();
    LoadSpec spec = new LoadSpec(host, p.port(), o.connections(), 1, (int) size, o.warmup(), o.duration(), rate,
        o.clientLoops(), o.timeout());
    return LoadGenerator.run(spec, Wire.http(host, "/" + PATH, true, size), Progress.none(), () -> p.cpu().seconds())
        .measurement();
  }
}
