package io.portshare.runtime.impl;

/** How far a start got, as log lines say it. */
enum Phase {
  STARTING("starting"),
  WARMING_UP("warming up"),
  READY("ready");

  private final String label;

  Phase(String label) {
    this.label = label;
  }

  @Override
  public String toString() {
    return label;
  }
}
