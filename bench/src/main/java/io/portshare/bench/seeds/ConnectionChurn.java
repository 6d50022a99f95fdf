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
import java.util.LinkedHashMap;
import java.util.List;
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
  static final String NGINX = HttperfRounds.NGINX;
  static final String PATH = HttperfRounds.PATH;

  static final List<Metric> METRICS = HttperfRounds.metrics("requests/s");

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
      Map<String, List<Round>> rounds = new HttperfRounds(lab, "004", load(), 1)
          .run(servers, site, plan.churnRounds());
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
}
