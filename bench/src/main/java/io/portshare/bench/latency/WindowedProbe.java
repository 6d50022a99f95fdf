package io.portshare.bench.latency;

import io.portshare.bench.cpu.CpuProbe;

/**
 * A server CPU probe that also notes the wall-clock time of its readings: the generator reads the
 * server's CPU once as the measured window opens and once as it closes, so these two times bound the
 * window a cell's GC pauses are counted in.
 */
final class WindowedProbe implements CpuProbe {

  private final CpuProbe cpu;
  private long startMillis = -1;
  private long endMillis = -1;

  WindowedProbe(CpuProbe cpu) {
    this.cpu = cpu;
  }

  @Override
  public double seconds() {
    long now = System.currentTimeMillis();
    if (startMillis < 0) {
      startMillis = now;
    } else {
      endMillis = now;
    }
    return cpu.seconds();
  }

  long startMillis() {
    return startMillis;
  }

  /** When the window closed; -1 until it has. */
  long endMillis() {
    return endMillis;
  }
}
