package io.portshare.bench.cpu;

import java.util.List;

/** Reads the CPU seconds a side of the measurement has used so far: a process tree, or nothing known. */
@FunctionalInterface
public interface CpuProbe {

  CpuProbe UNKNOWN = () -> Double.NaN;

  double seconds();

  static CpuProbe processes(List<Long> pids) {
    List<Long> copy = List.copyOf(pids);
    return () -> CpuTime.seconds(copy);
  }
}
