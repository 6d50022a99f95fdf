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
      MatrixResult m = new RpcMatrix(base, columns, 1, dir.resolve("servers"), new PrintStream(log), Progress.none())
          .run(List.of(new RpcMatrix.RowPlan("target", 0, List.of(), false)), Map.of("test", "yes"));

      assertThat(m.rows()).hasSize(1);
      MatrixRow row = m.rows().get(0);
      assertThat(row.note()).isNull();
      assertThat(row.cells()).hasSize(2);
      for (CellResult c : row.cells()) {
        assertThat(c.medianTransPerSecond()).as(c.column().label()).isPositive();
        assertThat(c.errors()).as(c.column().label()).isEmpty();
        assertThat(c.latency().p99()).isPositive();
      }

      ReportWriter.writeAll(m, dir);
      for (String f : ReportWriter.files()) {
        assertThat(dir.resolve(f)).isNotEmptyFile();
      }
      String html = Files.readString(dir.resolve("report.html"));
      // Self-contained: nothing to fetch (the SVG namespace URI is a name, not a request).
      assertThat(html).contains("<svg").contains("64B|1024x")
          .doesNotContain("<script", "<link", "<img", "src=", "href=", "url(", "@import");
      assertThat(Files.readString(dir.resolve("results.csv")).lines()).hasSize(3);
      assertThat(Files.readString(dir.resolve("results.json"))).contains("\"transPerSecondMedian\"");
      byte[] png = Files.readAllBytes(dir.resolve("rpc-matrix.png"));
      assertThat(png).startsWith(0x89, 'P', 'N', 'G');
    } finally {
      server.stop(Duration.ofSeconds(1));
    }
  }

  @Test
  void theTableIsPrintedEvenWhenTheReportCannotBeWritten() throws Exception {
    ServiceRuntime server = ServiceRuntime.start(new RpcService(), "--port", "0", "--admin-port", "0",
        "--host", "127.0.0.1", "--instances", "1");
    // A file where the report directory should be: as unwritable as a read-only root.
    Path notADirectory = Files.writeString(dir.resolve("occupied"), "x");
    PrintStream stdout = System.out;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int code;
    try {
      System.setOut(new PrintStream(out, true));
      code = BenchMain.execute("rpc-matrix", "--target", "127.0.0.1:" + server.port(), "--columns", "64B|1x",
          "--connections", "2", "--warmup", "0s", "--duration", "1s", "--out", notADirectory.toString());
    } finally {
      System.setOut(stdout);
      server.stop(Duration.ofSeconds(1));
    }
    assertThat(code).isEqualTo(1);
    assertThat(out.toString()).contains("workers  mode").contains("64B|1x").contains("load average:")
        .doesNotContain("written:");
  }

  @Test
  void theCommandLineRejectsBadFlagsWithExitCode2() {
    assertThat(BenchMain.execute("rpc-matrix", "--no-such-flag")).isEqualTo(2);
    assertThat(BenchMain.execute("rpc-matrix", "--columns", "64B-1x")).isEqualTo(2);
    assertThat(BenchMain.execute("rpc-matrix", "--target", "nohostport")).isEqualTo(2);
    assertThat(BenchMain.execute("rpc", "--target", "127.0.0.1:1", "--duration", "soon")).isEqualTo(2);
  }
}
