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
 * Seed 001: parallel {@code httperf --wsess=N,1,1 --max-conn=4} (sessions of one request each, one
 * after another per process) against the 4.1 KB index, the accept path before and after: static-server
 * accepting on an acceptor thread ({@code --accept-on-event-loop=false}) and on its event loops (the
 * default), nginx beside. Each round runs every server once, the order alternating.
 */
final class SessionLoad {

  static final String OLD = "static-server --accept-on-event-loop=false";
  static final String NEW = "static-server --accept-on-event-loop=true";
  static final String NGINX = "nginx";
  static final String PATH = "index.html";

  static final List<Metric> METRICS = List.of(
      new Metric("requestsPerSecond", "requests/s (httperf request rates added)", 1),
      new Metric("cut", "runs stopped at the time limit", 0),
      new Metric("errors", "httperf errors", 0),
      new Metric("serverCpuUsPerRequest", "server CPU µs/request", 1),
      new Metric("clientCpuUsPerRequest", "httperf CPU µs/request", 1));

  private final Lab lab;

  SessionLoad(Lab lab) {
    this.lab = lab;
  }

  List<String> load() {
    return List.of("--wsess=" + lab.plan.sessions() + ",1,1", "--max-conn=4");
  }

  Table run() throws IOException, InterruptedException {
    SeedPlan plan = lab.plan;
    Path site = lab.scratch.resolve("site-001");
    Site.create(site, List.of(PATH), plan.staticJar());
    String w = Integer.toString(plan.workers());
    List<Peer> servers = new ArrayList<>();
    try {
      servers.add(lab.startStatic(OLD, site, List.of("--instances", w, "--mode", "reuseport",
          "--accept-on-event-loop=false")));
      servers.add(lab.startStatic(NEW, site, List.of("--instances", w, "--mode", "reuseport",
          "--accept-on-event-loop=true")));
      servers.add(lab.startNginx(NGINX, site, plan.workers(), true, true));
      for (Peer p : servers) {
        lab.check(p, site, List.of(PATH));
      }
      lab.warm(servers.get(0), List.of(PATH));
      lab.warm(servers.get(1), List.of(PATH));
      Map<String, List<Round>> rounds = new LinkedHashMap<>();
      servers.forEach(p -> rounds.put(p.name(), new ArrayList<>()));
      for (int round = 0; round < plan.sessionRounds(); round++) {
        List<Peer> order = new ArrayList<>(servers);
        if (round % 2 == 1) {
          Collections.reverse(order);
        }
        for (Peer p : order) {
          Round r = measure(p);
          rounds.get(p.name()).add(r);
          lab.log.printf(Locale.ROOT, "  001 round %d  %-44s %9.1f req/s  errors %d%s%n", round + 1, p.name(),
              r.value("requestsPerSecond"), r.errors(), r.clientBound() ? "  client-bound" : "");
        }
      }
      List<Row> rows = new ArrayList<>();
      for (Peer p : servers) {
        rows.add(new Row(p.name(), List.of(new Cell(column(plan), rounds.get(p.name())))));
      }
      return new Table("001", "Seed 001 on this machine: " + plan.httperfs() + " parallel httperf "
          + String.join(" ", load()) + ", GET /" + PATH + ", " + plan.workers() + " workers per server", METRICS,
          List.of(column(plan)), rows, null);
    } finally {
      for (Peer p : servers) {
        p.close();
      }
    }
  }

  static String column(SeedPlan plan) {
    return plan.httperfs() + " x httperf";
  }

  private Round measure(Peer p) throws IOException, InterruptedException {
    SeedPlan plan = lab.plan;
    CpuTime before = p.cpu();
    Httperf.Run run = new Httperf(plan.httperf(), plan.httperfLimit()).run(lab.addresses(plan.httperfs()), p.port(), "/" + PATH, load());
    CpuTime server = p.cpu().minus(before);
    Map<String, Double> v = new LinkedHashMap<>();
    v.put("requestsPerSecond", run.requestRate());
    v.put("errors", (double) run.errors());
    v.put("cut", run.cut() ? 1.0 : 0.0);
    long replies = run.replies();
    if (replies > 0) {
      v.put("serverCpuUsPerRequest", server.seconds() * 1e6 / replies);
      v.put("clientCpuUsPerRequest", run.clientCpu().seconds() * 1e6 / replies);
    }
    boolean clientBound = ClientBound.judge(run.clientCpu().seconds(), server.seconds(), run.wallSeconds(),
        plan.httperfs(), lab.cpus);
    return new Round(v, run.errors(), clientBound);
  }
}
