package io.portshare.bench.seeds;

import io.portshare.bench.results.Cell;
import io.portshare.bench.results.Row;
import io.portshare.bench.results.Table;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Each seed's effect, computed from its published table and from this run's: the same figure (a
 * ratio, a count of cells) from both, and the verdict by the rule the claim states. Nothing here is
 * written by hand but the claims and the rules.
 */
final class Effects {

  private Effects() {}

  static Effect of(String seed, Table published, Table here) {
    return switch (seed) {
      case "000" -> closeStorm(published, here);
      case "001" -> sessions(published, here);
      case "002" -> sendfile(published, here);
      case "003" -> reuseport(published, here);
      case "004" -> churn(published, here);
      default -> throw new IllegalArgumentException("no seed " + seed);
    };
  }

  /** 000: after/before requests/s at every size; the published change fell to about a third. */
  static Effect closeStorm(Table published, Table here) {
    double[] pub = ratios(published, Published.AFTER_000, Published.BEFORE_000, "requestsPerSecond");
    double[] lat = ratios(published, Published.AFTER_000, Published.BEFORE_000, "latencyAvgMs");
    String claim = "seed 000: after/before requests/s below 1 at every size (about a third), average latency up";
    String pubText = "after/before requests/s " + range(pub) + ", latency " + range(lat);
    if (here == null) {
      return new Effect("000", claim, pubText, "-", null, "not run");
    }
    double[] ours = ratios(here, CloseStorm.OURS_AFTER, CloseStorm.OURS_BEFORE, "requestsPerSecond");
    double[] nginx = ratios(here, CloseStorm.NGINX_AFTER, CloseStorm.NGINX_BEFORE, "requestsPerSecond");
    double[] ourLat = ratios(here, CloseStorm.OURS_AFTER, CloseStorm.OURS_BEFORE, "latencyAvgMs");
    String text = "static-server socket per process / one socket: requests/s " + range(ours) + ", latency "
        + range(ourLat) + "; nginx reuseport / one socket: requests/s " + range(nginx);
    Boolean shown = ours.length == 0 ? null : Arrays.stream(ours).allMatch(r -> r < 1);
    return new Effect("000", claim, pubText, text, shown, "the published after is a kernel's rework of listening "
        + "sockets; here before/after are one socket every worker shares against a socket per worker");
  }

  /** 000's target: every connection answered at the published concurrency, by static-server as by nginx. */
  static Effect closeErrors(Table here, int connections) {
    String claim = "target: at " + connections + " concurrent Connection: close connections static-server answers "
        + "with 0 errors, as nginx does";
    if (here == null) {
      return new Effect("000", claim, "(no errors published)", "-", null, "not run");
    }
    long ours = errors(here, CloseStorm.OURS_BEFORE) + errors(here, CloseStorm.OURS_AFTER);
    long nginx = errors(here, CloseStorm.NGINX_BEFORE) + errors(here, CloseStorm.NGINX_AFTER);
    String text = "errors: static-server " + ours + ", nginx " + nginx;
    // No errors is no evidence when nothing was answered: every static-server cell must have served requests.
    boolean answered = !here.rows().isEmpty() && here.rows().stream().allMatch(r ->
        served(r.cell(CloseStorm.OURS_BEFORE)) && served(r.cell(CloseStorm.OURS_AFTER)));
    if (!answered) {
      return new Effect("000", claim, "(no errors published)", text + "; a static-server cell answered no request",
          null, "no request completed in some runs: the clients could not open their connections within the run");
    }
    return new Effect("000", claim, "(no errors published)", text, ours == 0, "");
  }

  /** 001: new over old, and every new run above every old run (the published runs do not overlap). */
  static Effect sessions(Table published, Table here) {
    String claim = "seed 001: the new accept path gives more requests/s than the old, every run above every old run";
    String pubText = describeGain(published.rows().get(1).cells().get(0), published.rows().get(0).cells().get(0));
    if (here == null) {
      return new Effect("001", claim, pubText, "-", null, "not run");
    }
    Cell oldCell = cell(here, SessionLoad.OLD, null);
    Cell newCell = cell(here, SessionLoad.NEW, null);
    if (oldCell == null || newCell == null) {
      return new Effect("001", claim, pubText, "-", null, "a server did not run");
    }
    boolean apart = newCell.min("requestsPerSecond") > oldCell.max("requestsPerSecond");
    double ratio = newCell.median("requestsPerSecond") / oldCell.median("requestsPerSecond");
    return new Effect("001", claim, pubText, "--accept-on-event-loop true/false: " + describeGain(newCell, oldCell),
        apart && ratio > 1, "the published change is in the kernel's accept; here it is which thread accepts: "
        + "the event loop that serves the connection, or an acceptor thread that hands it over");
  }

  /** 002: zero-copy sendfile at least 3x the copying sender in every pinning case. */
  static Effect sendfile(Table published, Table here) {
    String claim = "seed 002: sendfile() moves at least 3x the bytes of the copying sender in every pinning case";
    double[] pub = ratios(published, Published.ZC_SENDFILE, Published.ZC_SEND, "throughput");
    String pubText = "2.4.1-zc sendfile/send(8k) " + list(pub);
    if (here == null) {
      return new Effect("002", claim, pubText, "-", null, "not run");
    }
    double[] ours = ratios(here, SendfileLoopback.OURS_SENDFILE, SendfileLoopback.OURS_COPY, "megabytesPerSecond");
    double[] nginx = ratios(here, SendfileLoopback.NGINX_ON, SendfileLoopback.NGINX_OFF, "megabytesPerSecond");
    double[] cpu = ratios(here, SendfileLoopback.OURS_COPY, SendfileLoopback.OURS_SENDFILE, "serverCpuSecondsPerGb");
    String text = "static-server sendfile/copying MB/s " + list(ours) + " (server CPU per GB, copying/sendfile "
        + list(cpu) + "); nginx sendfile on/off " + list(nginx);
    Boolean shown = ours.length == 0 ? null : Arrays.stream(ours).allMatch(r -> r >= 3);
    return new Effect("002", claim, pubText, text, shown, "");
  }

  /** 003: -R at least -s and -r in every cell. */
  static Effect reuseport(Table published, Table here) {
    String claim = "seed 003: -R (pinned) at least -s (one socket) and -r (reuseport) in every cell";
    int[] pub = pinnedWins(published, w -> w + "/-R", w -> w + "/-s", w -> w + "/-r", List.of(4, 8, 16));
    String pubText = pub[0] + " of " + pub[1] + " cells";
    if (here == null) {
      return new Effect("003", claim, pubText, "-", null, "not run");
    }
    List<Integer> workers = new ArrayList<>();
    for (Row r : here.rows()) {
      int w = RpcWorkers.workers(r.label());
      if (w > 0 && !workers.contains(w)) {
        workers.add(w);
      }
    }
    int[] ours = pinnedWins(here, w -> "pinned x" + w, w -> RpcWorkers.ONE_SOCKET + " x" + w,
        w -> "reuseport x" + w, workers);
    if (ours[1] == 0) {
      return new Effect("003", claim, pubText, "no cell has all three rows", null,
          "pinned, one-socket or reuseport did not run");
    }
    return new Effect("003", claim, pubText, ours[0] + " of " + ours[1] + " cells (workers " + workers + ")",
        ours[0] == ours[1], "");
  }

  /** 004: the newer mechanism serves more requests/s with fewer errors, under overload. */
  static Effect churn(Table published, Table here) {
    return OverloadEffect.of(published, here);
  }

  // ---- figures from tables

  /** Per row, the headline-independent ratio of one column's median over another's; rows missing either are skipped. */
  static double[] ratios(Table t, String numerator, String denominator, String key) {
    List<Double> out = new ArrayList<>();
    for (Row r : t.rows()) {
      Cell a = r.cell(numerator);
      Cell b = r.cell(denominator);
      if (a != null && b != null && b.median(key) > 0 && !Double.isNaN(a.median(key))) {
        out.add(a.median(key) / b.median(key));
      }
    }
    return out.stream().mapToDouble(Double::doubleValue).toArray();
  }

  private static boolean served(Cell c) {
    return c != null && c.min("requestsPerSecond") > 0;
  }

  /** Errors counted in one column over all rows and rounds. */
  static long errors(Table t, String column) {
    return t.rows().stream().map(r -> r.cell(column)).filter(c -> c != null).mapToLong(Cell::errors).sum();
  }

  /** The cell of a row by label (and column, or the row's first). */
  static Cell cell(Table t, String row, String column) {
    for (Row r : t.rows()) {
      if (r.label().equals(row) || r.label().startsWith(row + " (")) {
        if (r.cells().isEmpty()) {
          return null;
        }
        return column == null ? r.cells().get(0) : r.cell(column);
      }
    }
    return null;
  }

  /** {cells where the pinned row is at least both others, cells where all three were measured}. */
  static int[] pinnedWins(Table t, java.util.function.IntFunction<String> pinned,
      java.util.function.IntFunction<String> shared, java.util.function.IntFunction<String> reuseport,
      List<Integer> workers) {
    int wins = 0;
    int cells = 0;
    for (int w : workers) {
      Row p = row(t, pinned.apply(w));
      Row s = row(t, shared.apply(w));
      Row r = row(t, reuseport.apply(w));
      if (p == null || s == null || r == null) {
        continue;
      }
      for (String col : t.columns()) {
        Cell pc = p.cell(col);
        Cell sc = s.cell(col);
        Cell rc = r.cell(col);
        if (pc == null || sc == null || rc == null) {
          continue;
        }
        String key = t.headline().key();
        cells++;
        if (pc.median(key) >= sc.median(key) && pc.median(key) >= rc.median(key)) {
          wins++;
        }
      }
    }
    return new int[] {wins, cells};
  }

  private static Row row(Table t, String label) {
    for (Row r : t.rows()) {
      if (r.label().equals(label) || r.label().startsWith(label + " (")) {
        return r;
      }
    }
    return null;
  }

  private static String describeGain(Cell better, Cell base) {
    return String.format(Locale.ROOT, "%+.1f%% (medians %.0f against %.0f; runs %s against %s)",
        (better.median("requestsPerSecond") / base.median("requestsPerSecond") - 1) * 100,
        better.median("requestsPerSecond"), base.median("requestsPerSecond"),
        span(better.min("requestsPerSecond"), better.max("requestsPerSecond")),
        span(base.min("requestsPerSecond"), base.max("requestsPerSecond")));
  }

  private static String span(double min, double max) {
    return String.format(Locale.ROOT, "%.0f-%.0f", min, max);
  }

  static String range(double[] v) {
    if (v.length == 0) {
      return "-";
    }
    double min = Arrays.stream(v).min().orElse(Double.NaN);
    double max = Arrays.stream(v).max().orElse(Double.NaN);
    return String.format(Locale.ROOT, min == max ? "%.2fx" : "%.2f-%.2fx", min, max);
  }

  static String list(double[] v) {
    if (v.length == 0) {
      return "-";
    }
    return String.join(", ", Arrays.stream(v).mapToObj(d -> String.format(Locale.ROOT, "%.2fx", d)).toList());
  }
}
