package io.portshare.bench.cpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.portshare.bench.BenchMain;
import io.portshare.bench.load.LoadEngine;
import io.portshare.bench.load.LoadSpec;
import io.portshare.bench.load.Measurement;
import io.portshare.bench.load.Progress;
import io.portshare.kit.Repository;
import io.portshare.kit.ServiceProcess;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server's CPU read from its own /metrics, as the Kubernetes bench Job reads its pods: a real
 * rpc-server process (its jar) under load from this JVM, its CPU read through the admin port and
 * from /proc over the same window.
 */
class MetricsCpuTest {

  private static ServiceProcess server;

  @BeforeAll
  static void startServer() throws Exception {
    server = ServiceProcess.launchJar(Repository.serviceJar("rpc-server"), Map.of(), "--port", "0", "--admin-port",
        "0", "--host", "127.0.0.1", "--instances", "2").awaitReady(Duration.ofSeconds(60));
  }

  @AfterAll
  static void stopServer() {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void theMetricsGiveTheCpuProcReadsForTheSameProcess() {
    CpuProbe metrics = MetricsCpu.of("--server-metrics", "127.0.0.1", server.adminPort());
    CpuProbe proc = CpuProbe.processes(List.of(server.pid()));
    // The metrics window holds the /proc one; between them the server only answers the scrape.
    double m0 = metrics.seconds();
    double p0 = proc.seconds();
    LoadSpec spec = new LoadSpec("127.0.0.1", server.port(), 8, 16, 64, Duration.ZERO, Duration.ofSeconds(2), 0, 1,
        Duration.ofSeconds(5));
    Measurement r = LoadEngine.JAVA.run(spec, Progress.none(), metrics);
    double p1 = proc.seconds();
    double m1 = metrics.seconds();

    assertThat(r.operations()).isPositive();
    assertThat(r.cpu().server()).as("the cell's server CPU, from /metrics").isPositive();
    assertThat(p1 - p0).as("server CPU from /proc").isGreaterThan(0.05);
    // /proc counts in clock ticks (10 ms); a scrape costs the server a millisecond or so.
    assertThat(m1 - m0).as("server CPU from /metrics against /proc")
        .isCloseTo(p1 - p0, within(0.05 + 0.1 * (p1 - p0)));
  }

  @Test
  void rpcMatrixWithATargetFillsTheServerCpuColumnFromTheMetrics(@TempDir Path dir) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrintStream stdout = System.out;
    int code;
    try {
      System.setOut(new PrintStream(out, true));
      code = BenchMain.execute("rpc-matrix", "--target", "127.0.0.1:" + server.port(), "--server-metrics",
          "127.0.0.1:" + server.adminPort(), "--engine", "java", "--columns", "64B|16x,1024B|1x", "--connections", "4",
          "--warmup", "0s", "--duration", "1s", "--out", dir.toString());
    } finally {
      System.setOut(stdout);
    }
    assertThat(code).as("exit code; output:\n%s", out).isZero();
    Path results;
    try (Stream<Path> files = Files.walk(dir)) {
      results = files.filter(f -> f.getFileName().toString().equals("results.json")).findFirst().orElseThrow();
    }
    JsonObject json = new JsonObject(Files.readString(results));
    assertThat(json.getJsonObject("meta").getString("CPU")).contains("process_cpu_time_ns_total", "127.0.0.1");
    List<Double> server = new ArrayList<>();
    for (Object row : json.getJsonArray("tables").getJsonObject(0).getJsonArray("rows")) {
      for (Object cell : ((JsonObject) row).getJsonArray("cells")) {
        JsonArray rounds = ((JsonObject) cell).getJsonArray("rounds");
        for (Object round : rounds) {
          server.add(((JsonObject) round).getJsonObject("values").getDouble("server_cpu_us"));
        }
      }
    }
    assertThat(server).as("server CPU us/transaction of every cell").hasSize(2).allSatisfy(us ->
        assertThat(us).isNotNull().isPositive());
  }

  @Test
  void anAddressWithoutTheMetricIsRefusedBeforeAnyLoad() throws Exception {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream stderr = System.err;
    int refused;
    int alone;
    try {
      System.setErr(new PrintStream(err, true));
      // The traffic port answers no HTTP: nothing there exports the metric.
      refused = BenchMain.execute("rpc-matrix", "--target", "127.0.0.1:" + server.port(), "--server-metrics",
          "127.0.0.1:" + server.port(), "--columns", "64B|1x", "--duration", "1s");
      alone = BenchMain.execute("rpc-matrix", "--server-metrics", "127.0.0.1:" + server.adminPort());
    } finally {
      System.setErr(stderr);
    }
    assertThat(refused).isEqualTo(2);
    assertThat(alone).isEqualTo(2);
    assertThat(err.toString()).contains("invalid value for --server-metrics: \"127.0.0.1:" + server.port() + "\"")
        .contains("go with --target");
    assertThat(BenchMain.execute("rpc", "--target", "127.0.0.1:1", "--server-metrics", "nohostport")).isEqualTo(2);
  }
}
