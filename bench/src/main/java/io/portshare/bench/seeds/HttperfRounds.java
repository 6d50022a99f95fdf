package io.portshare.bench.seeds;

import io.portshare.bench.cpu.CpuTime;
import io.portshare.bench.results.ClientBound;
import io.portshare.bench.results.Metric;
import io.portshare.bench.results.Round;
import io.portshare.bench.staticfiles.Peer;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Seed 001: one file from each server under {@code httperf} with the seed's load, every
 * server once a round, the order alternating; each round's request rate, errors, replies and the
 * server's and httperf's CPU per request. The servers are checked to serve the file's exact bytes
 * and static-server is warmed first (nginx needs no JIT).
 */
final class HttperfRounds {

  static final String NGINX = "nginx";
  static final String PATH = "index.html";

  /** The figures of each round, {@code rate} naming the request rate. */
  static List<Metric> metrics(String rate) {
    return List.of(
        new Metric("requestsPerSecond", rate, 1),
        new Metric("cut", "runs stopped at the time limit", 0),
        new Metric("errors", "httperf errors", 0),
        new Metric("replies", "replies", 0),
        new Metric("serverCpuUsPerRequest", "server CPU µs/request", 1),
        new Metric("clientCpuUsPerRequest", "httperf CPU µs/request", 1));
  }

  private final Lab lab;
  private final String seed;
  private final List<String> load;
  private final int httperfs;

  /** {@code httperfs} parallel httperf processes, each from its own 127.0.0.x, run {@code load} per round. */
  HttperfRounds(Lab lab, String seed, List<String> load, int httperfs) {
    this.lab = lab;
    this.seed = seed;
    this.load = load;
    this.httperfs = httperfs;
  }

  /** Each server's rounds by its name, in the order of {@code servers}. */
  Map<String, List<Round>> run(List<Peer> servers, Path site, int rounds) throws IOException, InterruptedException {
    for (Peer p : servers) {
      lab.check(p, site, List.of(PATH));
    }
    for (Peer p : servers) {
      if (!p.name().equals(NGINX)) {
        lab.warm(p, List.of(PATH));
      }
    }
    Map<String, List<Round>> out = new LinkedHashMap<>();
    servers.forEach(p -> out.put(p.name(), new ArrayList<>()));
    for (int round = 0; round < rounds; round++) {
      List<Peer> order = new ArrayList<>(servers);
      if (round % 2 == 1) {
        Collections.reverse(order);
      }
      for (Peer p : order) {
        Round r = measure(p);
        out.get(p.name()).add(r);
        lab.log.printf(Locale.ROOT, "  %s round %d  %-44s %9.1f req/s  errors %d%s%n", seed, round + 1, p.name(),
            r.value("requestsPerSecond"), r.errors(), r.clientBound() ? "  client-bound" : "");
      }
    }
    return out;
  }

  private Round measure(Peer p) throws IOException, InterruptedException {
    SeedPlan plan = lab.plan;
    CpuTime before = p.cpu();
    Httperf.Run run = new Httperf(plan.httperf(), plan.httperfLimit()).run(lab.addresses(httperfs), p.port(),
        "/" + PATH, load);
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
    boolean clientBound = ClientBound.judge(run.clientCpu().seconds(), server.seconds(), run.wallSeconds(), httperfs,
        lab.cpus);
    return new Round(v, run.errors(), clientBound);
  }
}
