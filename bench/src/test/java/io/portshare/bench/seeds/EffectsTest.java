package io.portshare.bench.seeds;

import static org.assertj.core.api.Assertions.assertThat;

import io.portshare.bench.results.Cell;
import io.portshare.bench.results.Metric;
import io.portshare.bench.results.Round;
import io.portshare.bench.results.Row;
import io.portshare.bench.results.Table;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The effects are computed from the tables: the published ones give the published claims back. */
class EffectsTest {

  @Test
  void thePublishedTablesGiveThePublishedEffects() {
    assertThat(Effects.of("000", Published.seed000(), null).published())
        .isEqualTo("after/before requests/s 0.33-0.34x, latency 2.07-2.43x");
    assertThat(Effects.of("001", Published.seed001(), null).published()).startsWith("+5.3%");
    assertThat(Effects.of("002", Published.seed002(), null).published())
        .isEqualTo("2.4.1-zc sendfile/send(8k) 3.01x, 3.23x, 3.20x");
    assertThat(Effects.of("003", Published.seed003(), null).published()).isEqualTo("12 of 12 cells");
    assertThat(Effects.of("004", Published.seed004(), null).published())
        .isEqualTo("kevent/epoll requests/s 1.52, errors 3300 against 14000");
    assertThat(Effects.of("003", Published.seed003(), null).verdict()).isEqualTo("not measured");
  }

  @Test
  void pinnedMustReachBothOtherRowsInEveryCell() {
    Table here = rpc(Map.of("one-socket x2", 10.0, "reuseport x2", 12.0, "pinned x2", 12.0));
    Effect e = Effects.of("003", Published.seed003(), here);
    assertThat(e.here()).startsWith("1 of 1 cells");
    assertThat(e.shown()).isTrue();
    Effect lost = Effects.of("003", Published.seed003(), rpc(Map.of("one-socket x2", 13.0, "reuseport x2", 12.0,
        "pinned x2", 12.5)));
    assertThat(lost.shown()).isFalse();
    assertThat(Effects.of("003", Published.seed003(), rpc(Map.of("shared x2", 1.0))).shown()).isNull();
  }

  @Test
  void noErrorsCountsOnlyWhereRequestsWereAnswered() {
    Table none = close(0, 0);
    assertThat(Effects.closeErrors(none, 30000).shown()).isNull();
    assertThat(Effects.closeErrors(close(5000, 0), 30000).shown()).isTrue();
    assertThat(Effects.closeErrors(close(5000, 3), 30000).shown()).isFalse();
  }

  private static Table close(double rate, long errors) {
    List<Cell> cells = new ArrayList<>();
    for (String c : CloseStorm.COLUMNS) {
      cells.add(new Cell(c, List.of(new Round(Map.of("requestsPerSecond", rate), errors, false))));
    }
    return new Table("000", "t", CloseStorm.METRICS, CloseStorm.COLUMNS, List.of(new Row("1KB", cells)), null);
  }

  @Test
  void rowsWithMoreWorkersThanCpusSaySo() {
    assertThat(RpcWorkers.label("pinned x4", 2)).isEqualTo("pinned x4 (oversubscribed)");
    assertThat(RpcWorkers.label("pinned x2", 2)).isEqualTo("pinned x2");
    assertThat(RpcWorkers.workers("c-epoll x16 (oversubscribed)")).isEqualTo(16);
  }

  @Test
  void httperfsReportIsRead() {
    Httperf.Result r = Httperf.Result.parse("""
        Total: connections 30000 requests 29000 replies 28990 test-duration 10.012 s
        Request rate: 2896.5 req/s (0.3 ms/req)
        Errors: total 1010 client-timo 1010 socket-timo 0 connrefused 0 connreset 0
        """);
    assertThat(r).isEqualTo(new Httperf.Result(30000, 29000, 28990, 10.012, 2896.5, 1010));
  }

  private static Table rpc(Map<String, Double> rates) {
    List<Row> rows = new ArrayList<>();
    rates.forEach((label, v) -> rows.add(new Row(label, List.of(new Cell("64B|1x",
        List.of(new Round(Map.of("tps_1e4", v), 0, false)))))));
    return new Table("003", "t", List.of(new Metric("tps_1e4", "10^4 transactions/s", 2)), List.of("64B|1x"), rows, null);
  }
}
