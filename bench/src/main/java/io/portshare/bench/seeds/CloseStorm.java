package io.portshare.bench.seeds;

import io.portshare.bench.cpu.CpuTime;
import io.portshare.bench.results.Cell;
import io.portshare.bench.results.ClientBound;
import io.portshare.bench.results.Metric;
import io.portshare.bench.results.Round;
import io.portshare.bench.results.Row;
import io.portshare.bench.results.Table;
import io.portshare.bench.staticfiles.Peer;
import io.portshare.bench.staticfiles.Site;
import io.portshare.bench.staticfiles.WrkResult;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Seed 000: one request per connection ({@code Connection: close}) from tens of thousands of
 * concurrent connections, 1, 8, 16 and 24 KB files, with one listening socket that every worker
 * shares (before) against a socket per worker (after). static-server runs as processes under the
 * supervisor, since one process may hold only so many descriptors: on one socket (handed to every
 * child by socket activation) and on a SO_REUSEPORT socket per child; nginx with its workers on one
 * socket and with {@code reuseport}. All four run at once; each round measures every size on each,
 * the order alternating.
 */
final class CloseStorm {

  static final String OURS_BEFORE = "static-server one socket";
  static final String OURS_AFTER = "static-server socket per process";
  static final String NGINX_BEFORE = "nginx one socket";
  static final String NGINX_AFTER = "nginx reuseport";
  static final List<String> COLUMNS = List.of(OURS_BEFORE, OURS_AFTER, NGINX_BEFORE, NGINX_AFTER);

  static final List<Metric> METRICS = List.of(
      new Metric("requestsPerSecond", "requests/s", 0),
      new Metric("latencyAvgMs", "latency avg ms", 0),
      new Metric("latencyP99Ms", "latency p99 ms (slowest wrk)", 0),
      new Metric("answered", "requests answered", 0),
      new Metric("errors", "errors (socket errors + non-2xx)", 0),
      new Metric("timeouts", "of them timeouts", 0),
      new Metric("connectErrors", "connect errors", 0),
      new Metric("readErrors", "read errors", 0),
      new Metric("badStatus", "non-2xx answers", 0),
      new Metric("ListenOverflows", "accept queue full (kernel ListenOverflows)", 0),
      new Metric("ListenDrops", "SYNs dropped at the listener (kernel ListenDrops)", 0),
      new Metric("TCPSynRetrans", "SYNs sent again (kernel TCPSynRetrans)", 0),
      new Metric("TCPAbortOnData", "resets for data after close (kernel TCPAbortOnData)", 0),
      new Metric("serverCpuUsPerRequest", "server CPU µs/request", 1),
      new Metric("clientCpuUsPerRequest", "wrk CPU µs/request", 1));

  private final Lab lab;

  CloseStorm(Lab lab) {
    this.lab = lab;
  }

  Table run() throws IOException, InterruptedException {
    SeedPlan plan = lab.plan;
    Path site = lab.scratch.resolve("site-000");
    Site.create(site, plan.sizes(), plan.staticJar());
    int w = plan.workers();
    List<Peer> servers = new ArrayList<>();
    try {
      servers.add(lab.startOneSocket(OURS_BEFORE, site, w, List.of()));
      servers.add(lab.startSupervised(OURS_AFTER, site, w, List.of()));
      servers.add(lab.startNginx(NGINX_BEFORE, site, w, true, false));
      servers.add(lab.startNginx(NGINX_AFTER, site, w, true, true));
      for (Peer p : servers) {
        lab.check(p, site, plan.sizes());
      }
      lab.warm(servers.get(0), plan.sizes());
      lab.warm(servers.get(1), plan.sizes());
      Map<String, Map<String, List<Round>>> rounds = new LinkedHashMap<>();
      for (String size : plan.sizes()) {
        Map<String, List<Round>> byServer = new LinkedHashMap<>();
        COLUMNS.forEach(c -> byServer.put(c, new ArrayList<>()));
        rounds.put(size, byServer);
      }
      for (int round = 0; round < plan.closeRounds(); round++) {
        List<String> sizes = new ArrayList<>(plan.sizes());
        List<Peer> order = new ArrayList<>(servers);
        if (round % 2 == 1) {
          Collections.reverse(sizes);
          Collections.reverse(order);
        }
        for (String size : sizes) {
          for (Peer p : order) {
            Round r = measure(p, size);
            rounds.get(size).get(p.name()).add(r);
            lab.log.printf(Locale.ROOT, "  000 round %d  %-8s %-34s %8.0f req/s  avg %6.0f ms  p99 %6.0f ms  errors %d (timeouts %.0f,"
                + " connect %.0f, read %.0f, non-2xx %.0f)%s%n",
                round + 1, size, p.name(), r.value("requestsPerSecond"), r.value("latencyAvgMs"),
                r.value("latencyP99Ms"), r.errors(), r.value("timeouts"), r.value("connectErrors"),
                r.value("readErrors"), r.value("badStatus"), r.clientBound() ? "  client-bound" : "");
          }
        }
      }
      List<Row> rows = new ArrayList<>();
      for (String size : plan.sizes()) {
        List<Cell> cells = new ArrayList<>();
        COLUMNS.forEach(c -> cells.add(new Cell(c, rounds.get(size).get(c))));
        rows.add(new Row(sizeLabel(size), cells));
      }
      return new Table("000", "Seed 000 on this machine: " + plan.connections() + " concurrent Connection: close "
          + "connections (" + plan.wrkProcesses() + " wrk processes), " + plan.closeDuration().toSeconds() + " s runs, "
          + "wrk timeout " + plan.wrkTimeout().toSeconds() + " s, "
          + w + " workers per server", METRICS, COLUMNS, rows, null);
    } finally {
      for (Peer p : servers) {
        p.close();
      }
    }
  }

  /** {@code 1k.bin} → {@code 1KB}, the published row names. */
  static String sizeLabel(String path) {
    return path.replaceFirst("^(\\d+)k\\.bin$", "$1KB");
  }

  private Round measure(Peer p, String size) throws IOException, InterruptedException {
    SeedPlan plan = lab.plan;
    List<String> urls = new ArrayList<>();
    for (String host : lab.addresses(plan.wrkProcesses())) {
      urls.add("http://" + host + ":" + p.port() + "/" + size);
    }
    CpuTime before = p.cpu();
    TcpCounters kernelBefore = TcpCounters.read();
    WrkFleet.Run run = new WrkFleet(plan.wrk()).run(urls, plan.connections(), true, plan.closeDuration(),
        plan.wrkTimeout());
    TcpCounters kernel = TcpCounters.read();
    CpuTime server = p.cpu().minus(before);
    Map<String, Double> v = new LinkedHashMap<>();
    v.put("requestsPerSecond", run.requestsPerSecond());
    v.put("answered", (double) run.requests());
    v.put("errors", (double) run.errors());
    // By kind, as seed 000's storm is judged: a timeout is a client that gave up waiting, a connect
    // error a SYN refused or dropped, a read error a reset; write errors are left in the total.
    v.put("timeouts", (double) run.sum(WrkResult::timeouts));
    v.put("connectErrors", (double) run.sum(WrkResult::connectErrors));
    v.put("readErrors", (double) run.sum(WrkResult::readErrors));
    v.put("badStatus", (double) run.sum(WrkResult::badStatus));
    for (String name : TcpCounters.NAMES) {
      v.put(name, kernel.since(kernelBefore, name));
    }
    long requests = run.requests();
    if (requests > 0) {
      v.put("latencyAvgMs", run.latencyAvgUs() / 1000);
      v.put("latencyP99Ms", run.latencyP99Us() / 1000);
      v.put("serverCpuUsPerRequest", server.seconds() * 1e6 / requests);
      v.put("clientCpuUsPerRequest", run.clientCpu().seconds() * 1e6 / requests);
    }
    boolean clientBound = ClientBound.judge(run.clientCpu().seconds(), server.seconds(), run.wallSeconds(),
        plan.wrkProcesses(), lab.cpus);
    return new Round(v, run.errors(), clientBound);
  }
}
