package io.portshare.bench.seeds;

import static org.assertj.core.api.Assertions.assertThat;

import io.portshare.bench.results.Cell;
import io.portshare.bench.results.Round;
import io.portshare.bench.results.Row;
import io.portshare.bench.results.Table;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Seed 004's verdict from its table: at the highest rate both transports were offered, table-driven. */
class OverloadEffectTest {

  /** One transport's cell: requests/s answered, errors, whether the generator held the rate. */
  private record Side(double rate, long errors, boolean held) {}

  private record Case(String name, Side closedEpoll, Side closedUring, Side topEpoll, Side topUring, Boolean shown,
      String here) {}

  private static final Side FAST = new Side(2000, 0, false);

  private static final List<Case> CASES = List.of(
      new Case("io_uring answers more with fewer errors", FAST, FAST, new Side(1600, 900, false),
          new Side(2000, 100, false), true, "io_uring/epoll requests/s 1.25, errors 100 against 900 (at 150%"),
      new Case("more answers but more errors", FAST, FAST, new Side(1600, 100, false), new Side(2000, 900, false),
          false, "io_uring/epoll requests/s 1.25, errors 900 against 100"),
      new Case("fewer errors but fewer answers", FAST, FAST, new Side(2000, 900, false), new Side(1600, 100, false),
          false, "io_uring/epoll requests/s 0.80"),
      new Case("the generator held the top rate", FAST, FAST, new Side(1600, 900, false), new Side(2000, 100, true),
          null, "io_uring/epoll requests/s 1.25"),
      new Case("the generator held a closed-loop maximum", new Side(2000, 0, true), FAST, new Side(1600, 900, false),
          new Side(2000, 100, false), null, "io_uring/epoll requests/s 1.25"),
      new Case("neither transport overloaded at the top rate", FAST, FAST, new Side(3000, 0, false),
          new Side(3000, 0, false), null, "io_uring/epoll requests/s 1.00, errors 0 against 0"),
      new Case("only epoll overloaded: io_uring keeps the rate", FAST, FAST, new Side(2900, 0, false),
          new Side(3000, 0, false), false, "io_uring/epoll requests/s 1.03, errors 0 against 0"),
      new Case("io_uring refused", FAST, null, new Side(1600, 900, false), null, null, "-"));

  @Test
  void shownOnlyWithMoreAnswersAndFewerErrorsWhereTheServersHeldTheRate() {
    for (Case c : CASES) {
      Effect e = OverloadEffect.of(Published.seed004(), table(c));
      assertThat(e.shown()).as(c.name()).isEqualTo(c.shown());
      assertThat(e.here()).as(c.name()).startsWith(c.here());
      assertThat(e.published()).isEqualTo("kevent/epoll requests/s 1.52, errors 3300 against 14000");
    }
  }

  @Test
  void aRefusedIoUringIsSaidPlainly() {
    Case refused = CASES.get(CASES.size() - 1);
    assertThat(OverloadEffect.of(Published.seed004(), table(refused)).why())
        .startsWith("io_uring was not measured: " + ConnectionChurn.REFUSED + "epoll)");
  }

  private static Table table(Case c) {
    List<Row> rows = new ArrayList<>();
    rows.add(row(ConnectionChurn.CLOSED, 0, c.closedEpoll(), c.closedUring()));
    rows.add(row("100%", 2000, new Side(1900, 10, false), c.closedUring() == null ? null : FAST));
    rows.add(row("150%", 3000, c.topEpoll(), c.topUring()));
    String refused = c.topUring() == null ? "; " + ConnectionChurn.REFUSED + "epoll): not measured" : "";
    return new Table("004", "Seed 004 on this machine" + refused, OverloadRound.METRICS,
        List.of(ConnectionChurn.EPOLL, ConnectionChurn.IO_URING), rows, null);
  }

  private static Row row(String label, double asked, Side epoll, Side uring) {
    List<Cell> cells = new ArrayList<>();
    cells.add(cell(ConnectionChurn.EPOLL, asked, epoll));
    if (uring != null) {
      cells.add(cell(ConnectionChurn.IO_URING, asked, uring));
    }
    return new Row(label, cells);
  }

  private static Cell cell(String column, double asked, Side s) {
    return new Cell(column, List.of(new Round(Map.of("requestsPerSecond", s.rate(), "asked", asked, "errors",
        (double) s.errors()), s.errors(), s.held())));
  }
}
