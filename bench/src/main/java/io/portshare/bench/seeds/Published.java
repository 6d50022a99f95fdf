package io.portshare.bench.seeds;

import io.portshare.bench.results.Cell;
import io.portshare.bench.results.Metric;
import io.portshare.bench.results.Round;
import io.portshare.bench.results.Row;
import io.portshare.bench.results.Table;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The five seeds' published tables, their figures as printed (facts, quoted with the seed named),
 * in the same form as this machine's tables so the report sets them side by side.
 */
final class Published {

  static final String BEFORE_000 = "r314268 (before)";
  static final String AFTER_000 = "solisten (after)";
  static final String OLD_001 = "old";
  static final String NEW_001 = "new (accept predication)";
  static final String ZC_SENDFILE = "2.4.1-zc sendfile()";
  static final String ZC_SEND = "2.4.1-zc send(8k)";
  static final String EPOLL_004 = "epoll";
  static final String KEVENT_004 = "kevent";

  private Published() {}

  static Table of(String seed) {
    return switch (seed) {
      case "000" -> seed000();
      case "001" -> seed001();
      case "002" -> seed002();
      case "003" -> seed003();
      case "004" -> seed004();
      default -> throw new IllegalArgumentException("no seed " + seed);
    };
  }

  /** nginx with 24 workers, wrk from two client machines of 15K connections each, 2-minute runs. */
  static Table seed000() {
    List<Metric> metrics = List.of(new Metric("requestsPerSecond", "requests/s", 2),
        new Metric("latencyAvgMs", "latency avg ms", 0));
    double[][] v = {{77916.71, 26240.37, 121, 294}, {77803.72, 25968.87, 121, 251}, {75698.77, 25047.23, 173, 377},
        {73736.80, 24946.36, 180, 379}};
    String[] sizes = {"1KB", "8KB", "16KB", "24KB"};
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < sizes.length; i++) {
      rows.add(new Row(sizes[i], List.of(cell(BEFORE_000, "requestsPerSecond", v[i][0], "latencyAvgMs", v[i][2]),
          cell(AFTER_000, "requestsPerSecond", v[i][1], "latencyAvgMs", v[i][3]))));
    }
    return new Table("000-published", "Seed 000 as published: nginx, 24 workers, wrk 1 request per connection, "
        + "30K concurrent connections (2 clients x 15K), 2-minute runs", metrics, List.of(BEFORE_000, AFTER_000), rows,
        null);
  }

  /** 16 parallel httperf --wsess=5000,1,1 --max-conn=4 against nginx 1.0.4, 4 runs each. */
  static Table seed001() {
    String col = "16 x httperf";
    List<Metric> metrics = List.of(new Metric("requestsPerSecond", "requests/s", 1));
    return new Table("001-published", "Seed 001 as published: 16 parallel httperf --wsess=5000,1,1 --max-conn=4, "
        + "nginx 1.0.4, 4 runs", metrics, List.of(col), List.of(
        new Row(OLD_001, List.of(runs(col, "requestsPerSecond", 23554.0, 23542.0, 23557.0, 23526.2))),
        new Row(NEW_001, List.of(runs(col, "requestsPerSecond", 24793.7, 24809.9, 24792.7, 24794.4)))), null);
  }

  /** Loopback, 60 cached ~300 KB files, receiver reads 64 KB hunks; the NFS column is left out. */
  static Table seed002() {
    List<Metric> metrics = List.of(new Metric("throughput", "throughput as printed (\"Mbyte/s\")", 0));
    List<String> cols = List.of("2.4.1 sendfile()", "2.4.1 send(8k)", ZC_SENDFILE, ZC_SEND);
    double[][] v = {{66600, 70000, 208000, 69000}, {66700, 68000, 213047, 66000}, {56000, 57000, 176000, 55000}};
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < SendfileLoopback.PINNINGS.size(); i++) {
      List<Cell> cells = new ArrayList<>();
      for (int j = 0; j < cols.size(); j++) {
        cells.add(runs(cols.get(j), "throughput", v[i][j]));
      }
      rows.add(new Row(SendfileLoopback.PINNINGS.get(i), cells));
    }
    return new Table("002-published", "Seed 002 as published: dual 500 MHz PII, loopback, sendfile() of whole files "
        + "against send() in 8 KB chunks, without and with the zerocopy patch", metrics, cols, rows, null);
  }

  /** 10^4 transactions/s, RHEL6 on 2 x 8 cores (HT), each worker process bound to its own CPU. */
  static Table seed003() {
    List<Metric> metrics = List.of(new Metric("tps_1e4", "10^4 transactions/s", 0));
    List<String> cols = List.of("64B|1x", "64B|1024x", "1024B|1x", "1024B|1024x");
    Object[][] v = {{"4/-s", 18, 80, 17, 78}, {"4/-r", 16, 71, 15, 67}, {"4/-R", 23, 96, 23, 92},
        {"8/-s", 18, 165, 18, 160}, {"8/-r", 30, 155, 29, 147}, {"8/-R", 36, 185, 36, 180},
        {"16/-s", 15, 230, 14, 220}, {"16/-r", 38, 230, 38, 220}, {"16/-R", 43, 230, 43, 220}};
    List<Row> rows = new ArrayList<>();
    for (Object[] r : v) {
      List<Cell> cells = new ArrayList<>();
      for (int j = 0; j < cols.size(); j++) {
        cells.add(runs(cols.get(j), "tps_1e4", ((Integer) r[j + 1]).doubleValue()));
      }
      rows.add(new Row((String) r[0], cells));
    }
    return new Table("003-published", "Seed 003 as published: -s one socket, -r SO_REUSEPORT, -R SO_REUSEPORT and "
        + "SO_BINDCPU; 4, 8, 16 worker processes, each bound to a CPU", metrics, cols, rows, null);
  }

  /** httperf --num-conns 30000 --rate 3000 --timeout 1, 4.1 KB index; the figures are the post's approximate ones. */
  static Table seed004() {
    String col = "30000 connections at 3000/s";
    List<Metric> metrics = List.of(new Metric("requestsPerSecond", "requests/s (about)", 0),
        new Metric("maxRequestsPerSecond", "most requests/s seen", 0),
        new Metric("errors", "errors of 30,000 (about)", 0));
    return new Table("004-published", "Seed 004 as published: httperf --num-conns 30000 --rate 3000 --timeout 1, "
        + "4.1 KB index, epoll and kevent web servers (epoll: ~1600-1700 req/s)", metrics, List.of(col), List.of(
        new Row(EPOLL_004, List.of(cell(col, "requestsPerSecond", 1650, "maxRequestsPerSecond", 1744, "errors", 14000))),
        new Row(KEVENT_004, List.of(cell(col, "requestsPerSecond", 2500, "maxRequestsPerSecond", 2535, "errors", 3300)))),
        null);
  }

  /** One published cell: key/value pairs of one measurement. */
  private static Cell cell(String column, Object... keyValues) {
    Map<String, Double> v = new LinkedHashMap<>();
    for (int i = 0; i < keyValues.length; i += 2) {
      v.put((String) keyValues[i], ((Number) keyValues[i + 1]).doubleValue());
    }
    return new Cell(column, List.of(new Round(v, 0, false)));
  }

  /** A published cell of one metric measured in each of several runs. */
  private static Cell runs(String column, String key, double... values) {
    List<Round> rounds = new ArrayList<>();
    for (double d : values) {
      rounds.add(new Round(Map.of(key, d), 0, false));
    }
    return new Cell(column, rounds);
  }
}
