package io.portshare.bench.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.portshare.bench.BenchMain;
import io.portshare.bench.ChartsScript;
import io.portshare.bench.cpu.CpuProbe;
import io.portshare.bench.load.LoadSpec;
import io.portshare.bench.load.Progress;
import io.portshare.bench.results.Cell;
import io.portshare.bench.results.Results;
import io.portshare.bench.results.ResultsWriter;
import io.portshare.bench.results.Row;
import io.portshare.bench.results.Table;
import io.portshare.rpc.RpcService;
import io.portshare.runtime.Runtimes;
import io.portshare.runtime.impl.ServiceRuntime;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A 2-second matrix cell against the real rpc-server, in this JVM, through the same path the
 * driver takes for {@code --target}; then the reports written from it.
 */
class RpcMatrixCellTest {

  @TempDir
  Path dir;
  @RegisterExtension
  final Runtimes runtimes = new Runtimes();

  @Test
  void aTwoSecondCellAgainstRpcServerHasTransactionsAndNoErrors() throws Exception {
    ServiceRuntime server = runtimes.start(new RpcService(), "--port", "0", "--admin-port", "0",
        "--host", "127.0.0.1", "--instances", "2", "--mode", "reuseport");
    LoadSpec base = new LoadSpec("127.0.0.1", server.port(), 8, 1, 64, Duration.ofMillis(500),
        Duration.ofSeconds(2), 0, 2, Duration.ofSeconds(5));
    List<Column> columns = List.of(new Column(64, 1024), new Column(1024, 1));
    ByteArrayOutputStream log = new ByteArrayOutputStream();
    // The server runs in this JVM: its "server" CPU is this process's, enough to see it recorded.
    Table t = new RpcMatrix(base, columns, 1, dir.resolve("servers"), new PrintStream(log), Progress.none())
        .run(List.of(new RpcMatrix.RowPlan("target", 2, List.of(), false,
            CpuProbe.processes(List.of(ProcessHandle.current().pid())))));

    assertThat(t.rows()).hasSize(1);
    Row row = t.rows().get(0);
    assertThat(row.note()).isNull();
    assertThat(row.label()).isEqualTo("target x2");
    assertThat(row.cells()).hasSize(2);
    for (Cell c : row.cells()) {
      assertThat(c.median(RpcResults.RATE)).as(c.column()).isPositive();
      assertThat(c.errors()).as(c.column()).isZero();
      assertThat(c.median(RpcResults.P99)).isPositive();
      assertThat(c.median(RpcResults.CLIENT_CPU)).as(c.column()).isPositive();
      assertThat(c.median(RpcResults.SERVER_CPU)).as(c.column()).isPositive();
      assertThat(c.median(RpcResults.PER_WORKER)).isEqualTo(c.median(RpcResults.RATE) / 2);
    }

    ResultsWriter.writeAll(new Results("portshare RPC benchmark", Map.of("command", "portshare-bench rpc-matrix --test"),
        List.of(t)), dir);
    for (String f : ResultsWriter.FILES) {
      assertThat(dir.resolve(f)).isNotEmptyFile();
    }
    String html = Files.readString(dir.resolve("report.html"));
    // Self-contained: nothing to fetch.
    assertThat(html).contains("64B|1024x")
        .doesNotContain("<script", "<link", "<img", "src=", "href=", "url(", "@import");
    List<String> csv = Files.readString(dir.resolve("results.csv")).lines().toList();
    assertThat(csv.get(0)).isEqualTo("# command: portshare-bench rpc-matrix --test");
    assertThat(csv).anyMatch(l -> l.startsWith("rpc,target x2,64B|1024x,1,") && l.contains(",client_cpu_us,"));
    assertThat(Files.readString(dir.resolve("results.json"))).contains("\"clientBound\"", "\"client_cpu_us\"",
        "\"server_cpu_us\"", "portshare-bench rpc-matrix --test");
    assertThat(ChartsScript.draw(dir)).contains("chart.png (tps_1e4)");
    byte[] png = Files.readAllBytes(dir.resolve("chart.png"));
    assertThat(png).startsWith(0x89, 'P', 'N', 'G');
  }

  @Test
  void theTableIsPrintedEvenWhenTheReportCannotBeWritten() throws Exception {
    ServiceRuntime server = runtimes.start(new RpcService(), "--port", "0", "--admin-port", "0",
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
    }
    assertThat(code).isEqualTo(1);
    assertThat(out.toString()).contains("RPC echo: 10^4 transactions/s").contains("64B|1x").contains("load average:")
        .doesNotContain("written:");
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
