package io.portshare.bench.seeds;

/**
 * What a seed found and whether this run shows it: {@code claim} says the effect, {@code published}
 * the figure computed from the published table, {@code here} the same figure from this run's table,
 * {@code shown} the verdict (null when this run could not measure it), {@code why} what differs.
 */
record Effect(String seed, String claim, String published, String here, Boolean shown, String why) {

  String verdict() {
    return shown == null ? "not measured" : shown ? "shown" : "not shown";
  }

  private static final String PUBLISHED = " | published: ";
  private static final String HERE = " | this run: ";

  /** One line for the text report and the run's metadata. */
  String line() {
    return claim + PUBLISHED + published + HERE + here + " | " + verdict()
        + (why == null || why.isEmpty() ? "" : " (" + why + ")");
  }

  /** The effect a run's metadata line says ({@link #line}), so that {@code report DIR} writes its report again. */
  static Effect fromLine(String seed, String line) {
    int p = line.indexOf(PUBLISHED);
    int h = line.indexOf(HERE, p + 1);
    int v = line.lastIndexOf(" | ");
    if (p < 0 || h < 0 || v <= h) {
      throw new IllegalArgumentException("not an effect's line: " + line);
    }
    String verdict = line.substring(v + 3);
    for (String known : new String[] {"not measured", "not shown", "shown"}) {
      if (verdict.equals(known) || verdict.startsWith(known + " (") && verdict.endsWith(")")) {
        String why = verdict.length() == known.length() ? null : verdict.substring(known.length() + 2, verdict.length() - 1);
        Boolean shown = known.equals("not measured") ? null : known.equals("shown");
        return new Effect(seed, line.substring(0, p), line.substring(p + PUBLISHED.length(), h),
            line.substring(h + HERE.length(), v), shown, why);
      }
    }
    throw new IllegalArgumentException("no verdict in an effect's line: " + line);
  }
}
