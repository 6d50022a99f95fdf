package io.portshare.bench.seeds;

import io.portshare.bench.latency.Verdict;
import io.portshare.bench.results.Cell;
import io.portshare.bench.results.Row;
import io.portshare.bench.results.Table;
import java.util.Locale;

/**
 * Seed 004's effect from the tables: io_uring over epoll in requests/s answered, and the errors of
 * each, at the highest rate both were offered (the most overloaded, as the published 3,000/s
 * overloaded epoll). Shown when io_uring answers more with fewer errors; not measured when io_uring
 * did not run, when the generator held the rate there or at a closed-loop maximum (then the
 * rates were not past the servers' saturation), or when neither transport was overloaded there
 * (both reached the rate asked without an error: "0 against 0" says nothing about overload).
 */
final class OverloadEffect {

  static final String CLAIM = "seed 004: the newer event mechanism serves more requests/s than epoll, with fewer "
      + "errors, under overload";

  private OverloadEffect() {}

  static Effect of(Table published, Table here) {
    Cell pe = published.rows().get(0).cells().get(0);
    Cell pk = published.rows().get(1).cells().get(0);
    String pubText = String.format(Locale.ROOT, "kevent/epoll requests/s %.2f, errors %.0f against %.0f",
        pk.median("requestsPerSecond") / pe.median("requestsPerSecond"), pk.median("errors"), pe.median("errors"));
    if (here == null) {
      return new Effect("004", CLAIM, pubText, "-", null, "not run");
    }
    Row closed = here.rows().isEmpty() ? null : here.rows().get(0);
    Row top = null;
    for (Row r : here.rows()) {
      if (r != closed && r.cell(ConnectionChurn.EPOLL) != null && r.cell(ConnectionChurn.IO_URING) != null) {
        top = r;
      }
    }
    if (top == null) {
      String why = here.title().contains(ConnectionChurn.REFUSED)
          ? "io_uring was not measured: " + here.title().substring(here.title().indexOf(ConnectionChurn.REFUSED))
          : "no open-loop rate has both transports";
      return new Effect("004", CLAIM, pubText, "-", null, why);
    }
    Cell e = top.cell(ConnectionChurn.EPOLL);
    Cell u = top.cell(ConnectionChurn.IO_URING);
    double ratio = u.median("requestsPerSecond") / e.median("requestsPerSecond");
    String text = String.format(Locale.ROOT, "io_uring/epoll requests/s %.2f, errors %.0f against %.0f (at %s of the "
        + "faster maximum, %.0f/s asked)", ratio, u.median("errors"), e.median("errors"), top.label(),
        e.median("asked"));
    String held = held(closed, "closed-loop maximum");
    held = held != null ? held : held(top, top.label());
    if (held != null) {
      return new Effect("004", CLAIM, pubText, text, null, held);
    }
    if (!overloaded(e) && !overloaded(u)) {
      return new Effect("004", CLAIM, pubText, text, null, "neither transport was past saturation at " + top.label()
          + ": both reached the rate asked without errors (raise --overload-shares or --overload-connections)");
    }
    boolean shown = ratio > 1 && u.median("errors") < e.median("errors");
    return new Effect("004", CLAIM, pubText, text, shown, "epoll and io_uring of the same server, offered the same "
        + "rates in alternating order");
  }

  /** Errors, or the rate asked not reached (by the latency bench's measure, {@link Verdict#RATE_SHARE}). */
  private static boolean overloaded(Cell c) {
    return c.median("errors") > 0 || c.median("requestsPerSecond") < c.median("asked") * Verdict.RATE_SHARE;
  }

  /** Why the generator, not a server, held the rate in this row; null when it did not. */
  private static String held(Row r, String where) {
    if (r == null) {
      return null;
    }
    for (Cell c : r.cells()) {
      if (c.clientBound()) {
        return "the generator held the rate at the " + where + " of " + c.column() + " (flagged !): not the server's figure";
      }
    }
    return null;
  }
}
