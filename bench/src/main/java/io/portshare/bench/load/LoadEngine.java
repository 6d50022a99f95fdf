package io.portshare.bench.load;

import io.portshare.bench.cpu.CpuProbe;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What makes the load of a cell: this JVM's generator ({@link #JAVA}), or the C reference client
 * ({@link CLoadTool}), which the calibration compares it with and which can run the closed-loop
 * cells itself, the way wrk does for HTTP.
 */
public interface LoadEngine {

  LoadEngine JAVA = new LoadEngine() {
    @Override
    public Measurement run(LoadSpec spec, Progress progress, CpuProbe server) {
      return LoadGenerator.run(spec, progress, server);
    }

    @Override
    public String describe() {
      return "portshare-bench generator (Java, Netty " + LoadGenerator.transport() + ")";
    }
  };

  Measurement run(LoadSpec spec, Progress progress, CpuProbe server);

  String describe();

  /**
   * The engine a command line names: {@code java}, {@code c} (the tool at {@code cLoad}), or
   * {@code auto}: the C client for closed loops when it is built, since calibration shows this
   * generator costing more CPU per transaction than it (docs/benchmark.md, "How far the load
   * generator can be trusted"), and this generator for open loops, which the C client does not do.
   */
  static LoadEngine named(String name, Path cLoad, boolean openLoop) {
    return switch (name) {
      case "java" -> JAVA;
      case "c" -> CLoadTool.at(cLoad);
      case "auto" -> !openLoop && Files.isExecutable(cLoad) ? new CLoadTool(cLoad) : JAVA;
      default -> throw new IllegalArgumentException("invalid value for --engine: \"" + name + "\"; expected auto, java or c");
    };
  }
}
