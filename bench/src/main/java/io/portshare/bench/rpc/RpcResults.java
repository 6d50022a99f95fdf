package io.portshare.bench.rpc;

import io.portshare.bench.load.Measurement;
import io.portshare.bench.results.Cell;
import io.portshare.bench.results.Metric;
import io.portshare.bench.results.Round;
import io.portshare.bench.results.Row;
import io.portshare.bench.results.Table;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * RPC runs in the results format every table shares: per round, transactions/s in the seed table's
 * unit (10^4/s), the same per worker, p99 latency, client and server CPU per transaction and the
 * client's busy share, one count per error kind; and the client-bound flag.
 */
final class RpcResults {

  static final String RATE = "tps_1e4";
  static final String PER_WORKER = "tps_1e4_per_worker";
  static final String P99 = "p99_ms";
  static final String CLIENT_CPU = "client_cpu_us";
  static final String SERVER_CPU = "server_cpu_us";
  static final String CLIENT_BUSY = "client_busy_percent";

  private RpcResults() {}

  /** One row's measured cells: its label, its worker count (0 when unknown) and the rounds of each column. */
  record RowRuns(String label, int workers, Map<String, List<Measurement>> cells, String note) {}

  static Table table(String key, String title, List<String> columns, List<RowRuns> rows) {
    Set<String> errorKinds = new TreeSet<>();
    boolean perWorker = false;
    for (RowRuns r : rows) {
      perWorker |= r.workers() > 0;
      r.cells().values().forEach(ms -> ms.forEach(m -> errorKinds.addAll(m.errors().keySet())));
    }
    List<Metric> metrics = new ArrayList<>();
    metrics.add(new Metric(RATE, "10^4 transactions/s", 2));
    if (perWorker) {
      metrics.add(new Metric(PER_WORKER, "10^4 transactions/s per worker", 2));
    }
    metrics.add(new Metric(P99, "p99 latency, ms", 2));
    metrics.add(new Metric(CLIENT_CPU, "client CPU us/transaction", 1));
    metrics.add(new Metric(SERVER_CPU, "server CPU us/transaction", 1));
    metrics.add(new Metric(CLIENT_BUSY, "client busy, % of its cores", 0));
    errorKinds.forEach(k -> metrics.add(new Metric("errors_" + k.replace('-', '_'), "errors: " + k, 0)));
    List<Row> out = new ArrayList<>();
    for (RowRuns r : rows) {
      List<Cell> cells = new ArrayList<>();
      r.cells().forEach((col, ms) -> {
        if (!ms.isEmpty()) {
          cells.add(new Cell(col, ms.stream().map(m -> round(m, r.workers())).toList()));
        }
      });
      out.add(new Row(r.label(), cells, r.note()));
    }
    return new Table(key, title, metrics, columns, out, null);
  }

  static Round round(Measurement m, int workers) {
    Map<String, Double> v = new LinkedHashMap<>();
    v.put(RATE, m.perSecond() / 1e4);
    if (workers > 0) {
      v.put(PER_WORKER, m.perSecond() / 1e4 / workers);
    }
    if (m.latency().count() > 0) {
      v.put(P99, m.latency().p99() / 1000.0);
    }
    putKnown(v, CLIENT_CPU, m.clientCpuMicrosPerOp());
    putKnown(v, SERVER_CPU, m.serverCpuMicrosPerOp());
    putKnown(v, CLIENT_BUSY, m.cpu().clientUtilisation() * 100);
    m.errors().forEach((k, n) -> v.put("errors_" + k.replace('-', '_'), (double) n));
    return new Round(v, m.errorCount(), m.clientBound());
  }

  private static void putKnown(Map<String, Double> v, String key, double value) {
    if (!Double.isNaN(value)) {
      v.put(key, value);
    }
  }
}
