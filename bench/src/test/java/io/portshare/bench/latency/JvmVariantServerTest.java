package io.portshare.bench.latency;

import static org.assertj.core.api.Assertions.assertThat;

import io.portshare.bench.cpu.CpuProbe;
import io.portshare.bench.ledger.Contender;
import io.portshare.bench.ledger.Contenders;
import io.portshare.bench.load.LoadGenerator;
import io.portshare.bench.load.LoadSpec;
import io.portshare.bench.load.Progress;
import io.portshare.kit.Repository;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@code --jvm} variant as the latency bench starts it: a real rpc-server (its jar) with the
 * variant's flags and its own GC log, whose collector is the one asked for (a flag the command line
 * lost would leave the JVM on its default collector, and fail here), and whose pauses in a window of
 * real load are read from that log.
 */
class JvmVariantServerTest {

  @TempDir
  Path dir;

  @Test
  void aVariantRunsOnItsCollectorAndItsPausesInAWindowAreRead() throws Exception {
    LatencyWorkload rpc = LatencyWorkload.rpc(64, 1024);
    Map<String, GcLog> gcLogs = new LinkedHashMap<>();
    // A heap small enough that a few seconds of load may well collect; none is required.
    List<Contenders.Spec> rows = LatencyCommand.rows(rpc,
        List.of(JvmVariant.parse("parallel=-XX:+UseParallelGC -Xms32m -Xmx32m")), dir.resolve("logs"), gcLogs);
    assertThat(rows).extracting(Contenders.Spec::name).containsExactly("c-echo", "rpc-server[parallel]");
    Contenders.Spec variant = rows.get(1);
    GcLog gcLog = gcLogs.get("rpc-server[parallel]");
    Contenders contenders = new Contenders(new Contenders.Sources(
        ProcessHandle.current().info().command().orElse("java"), List.of("-XX:+ExitOnOutOfMemoryError"),
        System.getProperty("java.class.path"), Repository.serviceJar("rpc-server"), null, null, null, null),
        dir, Files.createDirectories(dir.resolve("scratch")), Files.createDirectories(dir.resolve("logs")));
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    try (Contender server = contenders.start(variant, port)) {
      assertThat(gcLog.collector()).isEqualTo("Parallel");
      WindowedProbe window = new WindowedProbe(CpuProbe.processes(server.pids()));
      LoadSpec spec = new LoadSpec("127.0.0.1", port, 4, rpc.perConnection(), rpc.size(), Duration.ofMillis(200),
          Duration.ofSeconds(2), 0, 1, Duration.ofSeconds(5));
      LoadGenerator.Recorded r = LoadGenerator.run(spec, rpc.wire("127.0.0.1"), Progress.none(), window);
      assertThat(r.measurement().errors()).isEmpty();
      assertThat(window.endMillis() - window.startMillis()).isBetween(1900L, 4000L);
      GcPauses pauses = gcLog.pauses(window.startMillis(), window.endMillis());
      assertThat(pauses.known()).isTrue();
      assertThat(pauses.count()).isGreaterThanOrEqualTo(0);
      assertThat(pauses.maxMs()).isLessThanOrEqualTo(pauses.totalMs());
      // The window's pauses are among the whole log's, which the JVM wrote as it ran.
      assertThat(gcLog.pauses(0, Long.MAX_VALUE).count()).isGreaterThanOrEqualTo(pauses.count());
    }
  }
}
