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

  /** One line for the text report and the run's metadata. */
  String line() {
    return claim + " | published: " + published + " | this run: " + here + " | " + verdict()
        + (why == null || why.isEmpty() ? "" : " (" + why + ")");
  }
}
