package io.portshare.bench.seeds;

import io.portshare.bench.results.Cell;
import io.portshare.bench.results.Metric;
import io.portshare.bench.results.Round;
import io.portshare.bench.results.Row;
import io.portshare.bench.results.Table;
import io.portshare.bench.staticfiles.Peer;
import io.portshare.bench.staticfiles.Site;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
  static final String NGINX = HttperfRounds.NGINX;
  static final String PATH = HttperfRounds.PATH;

  static final List<Metric> METRICS = HttperfRounds.metrics("requests/s (httperf request rates added)");

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
      Map<String, List<Round>> rounds = new HttperfRounds(lab, "001", load(), plan.httperfs())
          .run(servers, site, plan.sessionRounds());
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
}
