package io.portshare.bench.results;

import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import picocli.CommandLine.Option;

/** Where a command writes its reports: a new folder per run under {@code --out}. */
public final class OutDir {

  @Option(names = "--out", defaultValue = "bench-results",
      description = "reports go to OUT/<timestamp>/, a folder per run (rpc-calibrate: OUT/<timestamp>-calibrate/) "
          + "(default: ${DEFAULT-VALUE})")
  Path out;

  /** OUT/&lt;yyyyMMdd-HHmmss&gt;&lt;suffix&gt;, for this run's reports. */
  public Path thisRun(String suffix) {
    return out.resolve(LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")) + suffix);
  }

  /** A folder under OUT shared by runs, e.g. for the started servers' logs. */
  public Path shared(String name) {
    return out.resolve(name);
  }
}
