package io.portshare.bench.latency;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A JVM server's GC log, written by the JVM itself ({@code -Xlog}) and read after each run: the
 * collector in use and every stop-the-world pause with the wall-clock time it ended, so a cell counts
 * exactly the pauses of its window. The services' {@code /metrics} has Micrometer's GC timer too, whose
 * count and sum would do, but its {@code _max} is a decaying maximum over a rotating window of
 * minutes: it would carry a pause of the cell before into this one.
 *
 * <p>Pauses are the lines {@code GC(n) Pause ...} ending in their duration, whatever the collector:
 * G1, Parallel and Serial log each young, full, remark or cleanup pause so (tag {@code gc}); ZGC logs
 * its three short pauses per cycle ({@code Pause Mark Start}, {@code Pause Mark End}, {@code Pause
 * Relocate Start}, with {@code Y:} or {@code O:} before them when generational) under {@code gc+phases}.
 * ZGC's cycles ({@code Garbage Collection}, {@code Major Collection}, its {@code Concurrent ...} phases)
 * run beside the application and are not counted: their length says how busy the collector was, not
 * how long requests waited. Micrometer draws the same line: the "ZGC Pauses" beans feed
 * {@code jvm_gc_pause_seconds}, the "ZGC Cycles" ones {@code jvm_gc_concurrent_phase_time_seconds}.
 */
final class GcLog {

  /** The decorator {@code timemillis}: {@code [1796309479921ms] GC(0) Pause Young (Normal) ... 17.960ms}. */
  private static final Pattern PAUSE =
      Pattern.compile("^\\[(\\d+)ms\\] GC\\(\\d+\\) (?:[A-Z]: )?Pause .* (\\d+(?:\\.\\d+)?)ms$");
  private static final Pattern USING = Pattern.compile("^\\[\\d+ms\\] Using (.+)$");

  private final Path file;

  GcLog(Path file) {
    this.file = file;
  }

  Path file() {
    return file;
  }

  /** The JVM flag that writes this log: tags gc and gc+phases at info, wall-clock millis, never rotated. */
  String jvmFlag() {
    return "-Xlog:gc,gc+phases:file=" + file + ":timemillis:filecount=0";
  }

  /** The collector the JVM says it uses ("G1", "Parallel", "The Z Garbage Collector"), or "unknown". */
  String collector() throws IOException {
    return collector(lines()).orElse("unknown");
  }

  /** The pauses that ended in the window {@code [fromMillis, toMillis)}; unknown, not none, without a log. */
  GcPauses pauses(long fromMillis, long toMillis) throws IOException {
    return Files.isRegularFile(file) ? GcPauses.within(pauses(lines()), fromMillis, toMillis) : GcPauses.NONE;
  }

  static Optional<String> collector(List<String> lines) {
    for (String line : lines) {
      Matcher m = USING.matcher(line);
      if (m.matches()) {
        return Optional.of(m.group(1).trim());
      }
    }
    return Optional.empty();
  }

  static List<GcPauses.Pause> pauses(List<String> lines) {
    List<GcPauses.Pause> out = new ArrayList<>();
    for (String line : lines) {
      Matcher m = PAUSE.matcher(line);
      if (m.matches()) {
        out.add(new GcPauses.Pause(Long.parseLong(m.group(1)), Double.parseDouble(m.group(2))));
      }
    }
    return out;
  }

  private List<String> lines() throws IOException {
    return Files.isRegularFile(file) ? Files.readAllLines(file, StandardCharsets.UTF_8) : List.of();
  }
}
