package io.portshare.bench.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import io.portshare.bench.cpu.CpuProbe;
import io.portshare.kit.Ci;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The C reference client as an engine: its result line read right, and a real run through it. */
class CLoadToolTest {

  @TempDir
  Path dir;

  @Test
  void theResultLineGivesCountsCpuAndErrorsByKind() {
    Map<String, String> r = CLoadTool.parse("result transactions=1200 seconds=2.000000 cpu_user_seconds=0.100000 "
        + "cpu_system_seconds=0.500000 errors_connect_refused=0 errors_reset=3 errors_closed=0 "
        + "errors_wrong_payload=1 errors_other=0 latency_us_mean=812.5 latency_us_p50=700 latency_us_p90=1000 "
        + "latency_us_p99=2047 latency_us_p999=4095 latency_us_max=5000");
    Measurement m = CLoadTool.measurement(r, 0.3, 2);
    assertThat(m.operations()).isEqualTo(1200);
    assertThat(m.perSecond()).isEqualTo(600);
    assertThat(m.cpu().client()).isCloseTo(0.6, offset(1e-9));
    assertThat(m.clientCpuMicrosPerOp()).isCloseTo(500, offset(1e-6));
    assertThat(m.errors()).containsOnly(Map.entry("reset", 3L), Map.entry("wrong-payload", 1L));
    assertThat(m.clientBound()).isTrue(); // 0.6 s of client CPU against 0.3 s of the server's
    assertThat(m.latency()).isEqualTo(new LatencySummary(1200, 812.5, 700, 1000, 2047, 4095, 5000));
  }

  @Test
  void aRealRunAgainstAnEchoServerCountsAndChecksEveryEcho() throws Exception {
    Path source = Path.of("peers/c-echo/rpcload.c").toAbsolutePath();
    assertThat(source).isRegularFile();
    Ci.require(onPath("gcc"), "gcc is not installed (.ci/run installs it): rpcload is not built and run");
    Path binary = dir.resolve("rpcload");
    Process gcc = new ProcessBuilder("gcc", "-O2", "-pthread", "-o", binary.toString(), source.toString())
        .inheritIO().start();
    assertThat(gcc.waitFor(60, TimeUnit.SECONDS) && gcc.exitValue() == 0).as("gcc built rpcload").isTrue();
    CLoadTool tool = CLoadTool.at(binary);
    try (EchoServer good = new EchoServer(0); EchoServer bad = new EchoServer(10)) {
      LoadSpec spec = new LoadSpec("127.0.0.1", good.port(), 4, 1, 64, Duration.ofSeconds(1), Duration.ofSeconds(2),
          0, 2, Duration.ofSeconds(5));
      Measurement ok = tool.run(spec, Progress.none(), CpuProbe.processes(List.of(ProcessHandle.current().pid())));
      assertThat(ok.operations()).as("%s", ok).isPositive();
      assertThat(ok.errors()).isEmpty();
      assertThat(ok.cpu().server()).isPositive();
      assertThat(ok.latency().count()).isEqualTo(ok.operations());
      assertThat(ok.latency().p50()).isPositive().isLessThanOrEqualTo(ok.latency().p99());
      assertThat(good.connections()).isBetween(good.frames(), good.frames() + 4); // one transaction per connection
      Measurement corrupt = tool.run(spec.withTarget("127.0.0.1", bad.port()).withCell(64, 1024), Progress.none(),
          CpuProbe.UNKNOWN);
      assertThat(corrupt.errors()).containsKey("wrong-payload");
    }
  }

  private static boolean onPath(String program) {
    for (String d : System.getenv().getOrDefault("PATH", "").split(":")) {
      if (Files.isExecutable(Path.of(d, program))) {
        return true;
      }
    }
    return false;
  }
}
