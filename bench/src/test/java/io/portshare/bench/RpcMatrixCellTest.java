package io.portshare.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.portshare.rpc.RpcService;
import io.portshare.runtime.ServiceRuntime;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A 2-second matrix cell against the real rpc-server, in this JVM, through the same path the
 * driver takes for {@code --target}; then the reports written from it.
 */
class RpcMatrixCellTest {

  @TempDir
  Path dir;

  @Test
  void aTwoSecondCellAgainstRpcServerHasTransactionsAndNoErrors() throws Exception {
    ServiceRuntime server = ServiceRuntime.start(new RpcService(), "--port", "0", "--admin-port", "0",
        "--host", "127.0.0.1", "--instances", "2", "--mode", "reuseport");
    try {
      LoadSpec base = new LoadSpec("127.0.0.1", server.port(), 8, 1, 64, Duration.ofMillis(500),
          Duration.ofSeconds(2), 0, 2, Duration.ofSeconds(5));
      List<Column> columns = List.of(new Column(64, 1024), new Column(1024, 1));
      ByteArrayOutputStream log = new ByteArrayOutputStream();
      // The server runs in this JVM: its "server" CPU is this process's, enough to see it recorded.
      ResultTable m = new RpcMatrix(base, columns, 1, dir.resolve("servers"), new PrintStream(log), Progress.none())
          .run(List.of(new RpcMatrix.RowPlan("target", 2, List.of(), false, List.of(ProcessHandle.current().pid()))),
              Map.of("test", "yes"));

      assertThat(m.rows()).hasSize(1);
      ResultRow row = m.rows().get(0);
      assertThat(row.note()).isNull();
      assertThat(row.keys()).containsEntry("workers", "2").containsEntry("mode", "target");
      assertThat(row.cells()).hasSize(2);
      for (ResultCell c : row.cells()) {
        assertThat(c.median()).as(c.column()).isPositive();
        assertThat(c.errors()).as(c.column()).isEmpty();
        assertThat(c.latency().p99()).isPositive();
        assertThat(c.clientCpuMicrosPerOp()).as(c.column()).isPositive();
        assertThat(c.serverCpuMicrosPerOp()).as(c.column()).isPositive();
      }

      ReportWriter.writeAll(m, "portshare-bench rpc-matrix --test", dir);
      for (String f : ReportWriter.files()) {
        assertThat(dir.resolve(f)).isNotEmptyFile();
      }
      String html = Files.readString(dir.resolve("report.html"));
      // Self-contained: nothing to fetch (the SVG namespace URI is a name, not a request).
      assertThat(html).contains("<svg").contains("64B|1024x")
          .doesNotContain("<script", "<link", "<img", "src=", "href=", "url(", "@import");
      List<String> csv = Files.readString(dir.resolve("results.csv")).lines().toList();
      assertThat(csv).hasSize(4);
      assertThat(csv.get(0)).isEqualTo("# portshare-bench rpc-matrix --test");
      assertThat(csv.get(1)).startsWith("workers,mode,column,round,").contains(",client_cpu_us_per_op,", ",client_bound");
      assertThat(Files.readString(dir.resolve("results.json"))).contains("\"median\"", "\"clientBound\"",
          "\"clientCpuUsPerOp\"", "\"command\" : \"portshare-bench rpc-matrix --test\"");
      assertThat(Files.readString(dir.resolve("table.txt"))).startsWith("# portshare-bench rpc-matrix --test\n")
          .contains("CPU per operation, us: client / server");
      byte[] png = Files.readAllBytes(dir.resolve("chart.png"));
      assertThat(png).startsWith(0x89, 'P', 'N', 'G');
    } finally {
      server.stop(Duration.ofSeconds(1));
    }
  }

  @Test
  void theCommandLineRejectsBadFlagsWithExitCode2() {
    assertThat(BenchMain.execute("rpc-matrix", "--no-such-flag")).isEqualTo(2);
    assertThat(BenchMain.execute("rpc-matrix", "--columns", "64B-1x")).isEqualTo(2);
    assertThat(BenchMain.execute("rpc-matrix", "--target", "nohostport")).isEqualTo(2);
    assertThat(BenchMain.execute("rpc", "--target", "127.0.0.1:1", "--duration", "soon")).isEqualTo(2);
    assertThat(BenchMain.execute("rpc", "--target", "127.0.0.1:1", "--engine", "rust")).isEqualTo(2);
    assertThat(BenchMain.execute("rpc-calibrate", "--targets", "nginx")).isEqualTo(2);
  }
}
