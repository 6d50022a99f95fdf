package io.portshare.bench.latency;

import static org.assertj.core.api.Assertions.assertThat;

import io.portshare.bench.cpu.CpuProbe;
import io.portshare.bench.ledger.Contender;
import io.portshare.bench.ledger.Contenders;
import io.portshare.bench.load.LoadGenerator;
import io.portshare.bench.load.LoadSpec;
import io.portshare.bench.load.Progress;
import io.portshare.kit.FreePorts;
import io.portshare.kit.Repository;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@code --jvm} variant as the latency bench starts it: a real rpc-server (its jar) with the
 * variant's flags and its own GC log, whose collector is the one asked for (a flag the command line
 * lost would leave the JVM on its default collector, and fail here), and whose pauses in a window of
 * real load are read from that log: a collection forced in the window must be among them.
 */
class JvmVariantServerTest {

  /** The collection jcmd GC.run forces, as Parallel logs it, and its length. */
  private static final Pattern FORCED =
      Pattern.compile("(?m)^\\[\\d+ms\\] GC\\(\\d+\\) Pause Full \\(Diagnostic Command\\) .* ([\\d.]+)ms$");

  @TempDir
  Path dir;

  @Test
  void aVariantRunsOnItsCollectorAndItsPausesInAWindowAreRead() throws Exception {
    LatencyWorkload rpc = LatencyWorkload.rpc(64, 1024);
    Map<String, GcLog> gcLogs = new LinkedHashMap<>();
    // A heap small enough that a few seconds of load may well collect; one is forced in the window.
    List<Contenders.Spec> rows = LatencyCommand.rows(rpc,
        List.of(JvmVariant.parse("parallel=-XX:+UseParallelGC -Xms32m -Xmx32m")), dir.resolve("logs"), gcLogs);
    assertThat(rows).extracting(Contenders.Spec::name).containsExactly("c-echo", "rpc-server[parallel]");
    Contenders.Spec variant = rows.get(1);
    GcLog gcLog = gcLogs.get("rpc-server[parallel]");
    Contenders contenders = new Contenders(new Contenders.Sources(
        ProcessHandle.current().info().command().orElse("java"), List.of("-XX:+ExitOnOutOfMemoryError"),
        System.getProperty("java.class.path"), Repository.serviceJar("rpc-server"), null, null, null, null),
        dir, Files.createDirectories(dir.resolve("scratch")), Files.createDirectories(dir.resolve("logs")));
    // The server listens on port and its admin on port + 1: a block below the ephemeral range, where
    // another build's clients do not take port + 1 meanwhile.
    int port = FreePorts.block(2);
    try (Contender server = contenders.start(variant, port)) {
      assertThat(gcLog.collector()).isEqualTo("Parallel");
      assertThat(server.pids()).hasSize(1);
      WindowedProbe window = new WindowedProbe(CpuProbe.processes(server.pids()));
      // As the window opens the server is made to collect (jcmd GC.run, logged as "Diagnostic
      // Command"), so at least one pause ends inside the window, whatever the load did: the window's
      // edges are read before and after it.
      CpuProbe collecting = new CpuProbe() {
        private boolean opened;

        @Override
        public double seconds() {
          double seconds = window.seconds();
          if (!opened) {
            opened = true;
            collect(server.pids().get(0));
          }
          return seconds;
        }
      };
      LoadSpec spec = new LoadSpec("127.0.0.1", port, 4, rpc.perConnection(), rpc.size(), Duration.ofMillis(200),
          Duration.ofSeconds(2), 0, 1, Duration.ofSeconds(5));
      long before = System.currentTimeMillis();
      LoadGenerator.Recorded r = LoadGenerator.run(spec, rpc.wire("127.0.0.1"), Progress.none(), collecting);
      long after = System.currentTimeMillis();
      assertThat(r.measurement().errors()).isEmpty();
      // The window is the run's measured part: at least its 2 s, within the run.
      assertThat(window.startMillis()).isGreaterThanOrEqualTo(before);
      assertThat(window.endMillis()).isLessThanOrEqualTo(after);
      assertThat(window.endMillis() - window.startMillis()).isGreaterThanOrEqualTo(1900L);
      Matcher forced = FORCED.matcher(Files.readString(gcLog.file()));
      assertThat(forced.find()).as("the forced collection in the GC log").isTrue();
      double forcedMs = Double.parseDouble(forced.group(1));
      GcPauses pauses = gcLog.pauses(window.startMillis(), window.endMillis());
      assertThat(pauses.known()).isTrue();
      assertThat(pauses.count()).as("pauses in the window, the forced one among them").isGreaterThanOrEqualTo(1);
      assertThat(pauses.totalMs()).isGreaterThanOrEqualTo(forcedMs);
      assertThat(pauses.maxMs()).as("the longest pause in the window, the forced one's %s ms at least", forcedMs)
          .isGreaterThanOrEqualTo(forcedMs).isLessThanOrEqualTo(pauses.totalMs());
      // The window's pauses are among the whole log's, which the JVM wrote as it ran.
      assertThat(gcLog.pauses(0, Long.MAX_VALUE).count()).isGreaterThanOrEqualTo(pauses.count());
    }
  }

  /** Runs a full collection in {@code pid} and returns once it is over (jcmd replies after System.gc()). */
  private static void collect(long pid) {
    Path jcmd = Path.of(ProcessHandle.current().info().command().orElseThrow()).resolveSibling("jcmd");
    try {
      Process p = new ProcessBuilder(jcmd.toString(), Long.toString(pid), "GC.run").redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(p.waitFor()).as("jcmd %d GC.run: %s", pid, out).isZero();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
