package io.portshare.bench.results;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** One cell over runs: each run's "MEDIAN (LO-HI)" combined into the median of the medians and their min-max. */
final class RunsCell {

  private static final Pattern CELL = Pattern.compile("([0-9.]+)(?: \\(([0-9.]+)-([0-9.]+)\\))?(.*)");

  private RunsCell() {}

  /**
   * {@code perRun}: each run's cell as its table has it; "-" (not measured there) and any cell that is
   * not a figure leave the combined cell without one.
   */
  static String of(List<String> perRun) {
    List<Double> medians = new ArrayList<>();
    List<Double> widths = new ArrayList<>();
    StringBuilder marks = new StringBuilder();
    int decimals = 0;
    for (String cell : perRun) {
      Matcher m = CELL.matcher(cell.strip());
      if (!m.matches()) {
        return "-";
      }
      int dot = m.group(1).indexOf('.');
      decimals = Math.max(decimals, dot < 0 ? 0 : m.group(1).length() - dot - 1);
      medians.add(Double.parseDouble(m.group(1)));
      if (m.group(2) != null) {
        widths.add(Double.parseDouble(m.group(3)) - Double.parseDouble(m.group(2)));
      }
      String mark = m.group(4).strip();
      if (!mark.isEmpty() && marks.indexOf(mark) < 0) {
        marks.append(' ').append(mark);
      }
    }
    double lo = medians.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
    double hi = medians.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
    double median = Stats.median(medians.stream().mapToDouble(Double::doubleValue).toArray());
    double within = widths.isEmpty() ? 0 : Stats.median(widths.stream().mapToDouble(Double::doubleValue).toArray());
    String f = "%." + decimals + "f";
    String range = String.format(Locale.ROOT, "(" + f + "-" + f + ")", lo, hi);
    if (!widths.isEmpty() && hi - lo > within) {
      return "disagree " + range + marks;
    }
    // As precise as the runs' own cells, no more.
    return String.format(Locale.ROOT, f, median) + " " + range + marks;
  }
}
