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
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Seed 004: {@code httperf --num-conns 30000 --rate 3000 --timeout 1} against the 4.1 KB index, two
 * event mechanisms of the same server: static-server on epoll and on io_uring (today's newer
 * mechanism, as kevent was then), nginx beside. Requests/s and errors of the connections, rounds
 * alternating the order.
 */
final class ConnectionChurn {

  static final String EPOLL = "static-server epoll";
  static final String IO_URING = "static-server io_uring";
  static final String NGINX = "nginx";
  static final String PATH = "index.html";

  static final List<Metric> METRICS = List.of(
      new Metric("requestsPerSecond", "requests/s", 1),
      new Metric("cut", "runs stopped at the time limit", 0),
      new Metric("errors", "errors", 0),
      new Metric("replies", "replies", 0),
      new Metric("serverCpuUsPerRequest", "server CPU µs/request", 1),
      new Metric("clientCpuUsPerRequest", "httperf CPU µs/request", 1));

  private final Lab lab;

  ConnectionChurn(Lab lab) {
    this.lab = lab;
  }

  List<String> load() {
    return List.of("--num-conns", Integer.toString(lab.plan.churnConnections()), "--rate",
        Integer.toString(lab.plan.churnRate()), "--timeout", "1");
  }

  /** The table, and what ran (io_uring may be refused by the kernel: the row then says so). */
  Table run(Map<String, String> meta) throws IOException, InterruptedException {
    SeedPlan plan = lab.plan;
    Path site = lab.scratch.resolve("site-004");
    Site.create(site, List.of(PATH), plan.staticJar());
    String w = Integer.toString(plan.workers());
    List<Peer> servers = new ArrayList<>();
    Map<String, String> notes = new LinkedHashMap<>();
    try {
      servers.add(lab.startStatic(EPOLL, site, List.of("--instances", w, "--transport", "epoll")));
      Peer uring = lab.startStatic(IO_URING, site, List.of("--instances", w, "--transport", "io_uring"));
      String transport = Lab.transport(uring);
      meta.put("seed 004 io_uring", "static-server asked for io_uring runs on " + transport);
      if (!transport.equals("io_uring")) {
        notes.put(IO_URING, "not measured: the kernel refused io_uring (the server runs " + transport + ")");
        uring.close();
      } else {
        servers.add(uring);
      }
      servers.add(lab.startNginx(NGINX, site, plan.workers(), true, true));
      for (Peer p : servers) {
        lab.check(p, site, List.of(PATH));
      }
      for (Peer p : servers) {
        if (!p.name().equals(NGINX)) {
          lab.warm(p, List.of(PATH));
        }
      }
      Map<String, List<Round>> rounds = new LinkedHashMap<>();
      servers.forEach(p -> rounds.put(p.name(), new ArrayList<>()));
      for (int round = 0; round < plan.churnRounds(); round++) {
        List<Peer> order = new ArrayList<>(servers);
        if (round % 2 == 1) {
          Collections.reverse(order);
        }
        for (Peer p : order) {
          Round r = measure(p);
          rounds.get(p.name()).add(r);
          lab.log.printf(Locale.ROOT, "  004 round %d  %-24s %8.1f req/s  errors %5d of %d%s%n", round + 1, p.name(),
              r.value("requestsPerSecond"), r.errors(), plan.churnConnections(), r.clientBound() ? "  client-bound" : "");
        }
      }
      List<Row> rows = new ArrayList<>();
      for (String name : List.of(EPOLL, IO_URING, NGINX)) {
        if (notes.containsKey(name)) {
          rows.add(new Row(name, List.of(), notes.get(name)));
        } else {
          rows.add(new Row(name, List.of(new Cell(column(plan), rounds.get(name)))));
        }
      }
      return new Table("004", "Seed 004 on this machine: httperf " + String.join(" ", load()) + ", GET /" + PATH + ", "
          + plan.workers() + " workers per server", METRICS, List.of(column(plan)), rows, null);
    } finally {
      for (Peer p : servers) {
        p.close();
      }
    }
  }

  static String column(SeedPlan plan) {
    return plan.churnConnections() + " connections at " + plan.churnRate() + "/s";
  }

  private Round measure(Peer p) throws IOException, InterruptedException {
    SeedPlan plan = lab.plan;
    CpuTime before = p.cpu();
    Httperf.Run run = new Httperf(plan.httperf(), plan.httperfLimit()).run(List.of(lab.address()), p.port(), "/" + PATH, load());
    CpuTime server = p.cpu().minus(before);
    Map<String, Double> v = new LinkedHashMap<>();
    v.put("requestsPerSecond", run.requestRate());
    v.put("errors", (double) run.errors());
    v.put("cut", run.cut() ? 1.0 : 0.0);
    v.put("replies", (double) run.replies());
    long replies = run.replies();
    if (replies > 0) {
      v.put("serverCpuUsPerRequest", server.seconds() * 1e6 / replies);
      v.put("clientCpuUsPerRequest", run.clientCpu().seconds() * 1e6 / replies);
    }
    boolean clientBound = ClientBound.judge(run.clientCpu().seconds(), server.seconds(), run.wallSeconds(), 1, lab.cpus);
    return new Round(v, run.errors(), clientBound);
  }
}
