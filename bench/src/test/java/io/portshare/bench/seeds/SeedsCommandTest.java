package io.portshare.bench.seeds;

import static org.assertj.core.api.Assertions.assertThat;

import io.portshare.bench.BenchMain;
import io.portshare.bench.results.Cell;
import io.portshare.bench.results.Metric;
import io.portshare.bench.results.Results;
import io.portshare.bench.results.ResultsJson;
import io.portshare.bench.results.Row;
import io.portshare.bench.results.Table;
import io.portshare.bench.staticfiles.Tools;
import io.portshare.kit.Ci;
import io.portshare.kit.FreePorts;
import io.portshare.kit.Repository;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The seeds command, every seed once on tiny settings against the real jars, nginx, wrk, httperf and
 * the C peers, so the command cannot rot. Nothing here is timed: the report must hold each seed's
 * published table, this machine's table with its rows, and each effect with a verdict.
 */
class SeedsCommandTest {

  @TempDir
  Path dir;

  @Test
  @Timeout(value = 10, unit = TimeUnit.MINUTES)
  void everySeedRunsOnceAndTheReportSetsItBesideItsPublishedTable() throws Exception {
    for (String tool : List.of("wrk", "httperf", "systemd-socket-activate", "taskset", "gcc")) {
      Ci.require(Tools.find(tool).isPresent(), tool + " is not installed (.ci/run installs it)");
    }
    Ci.require(Tools.find("nginx", "/usr/sbin/nginx").isPresent(), "nginx is not installed (.ci/run installs it)");
    Path root = Repository.root();
    Path peers = dir.resolve("peers");
    Files.createDirectories(peers);
    for (String c : List.of("echo", "rpcload")) {
      Process gcc = new ProcessBuilder("gcc", "-O2", "-pthread", "-o", peers.resolve(c).toString(),
          root.resolve("bench/peers/c-echo/" + c + ".c").toString()).redirectErrorStream(true).start();
      String out = new String(gcc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(gcc.waitFor(120, TimeUnit.SECONDS) && gcc.exitValue() == 0).as("gcc built %s: %s", c, out).isTrue();
    }
    Path out = dir.resolve("out");
    int code = BenchMain.execute("seeds",
        "--connections", "200", "--sizes", "1k.bin", "--duration", "1s", "--wrk-timeout", "5s",
        "--httperfs", "2", "--sessions", "50", "--httperf-rounds", "1",
        "--files", "3", "--file-kib", "64", "--transfer", "300ms",
        "--rpc-workers", "1", "--rpc-duration", "200ms",
        "--rpc-warmup", "100ms",
        // 004's generator starts cold in this JVM: a second of unmeasured load before each window.
        "--overload-shares", "100,150", "--overload-duration", "1s", "--overload-warmup", "1s",
        "--overload-connections", "8", "--overload-timeout", "500ms",
        "--workers", "1", "--server-warmup", "0s", "--port", Integer.toString(FreePorts.block(100)),
        "--server-args", "--warmup 0", // rpc-server warms itself by default: not what this run checks
        // Servers that start quickly: the tiny run checks the command, not the servers' speed.
        "--server-jvm-options", "-Xmx128m -XX:TieredStopAtLevel=1 -XX:+ExitOnOutOfMemoryError",
        "--static-server-jar", Repository.serviceJar("static-server").toString(),
        "--rpc-server-jar", Repository.serviceJar("rpc-server").toString(),
        "--nginx-template", root.resolve("bench/peers/nginx-static.conf.template").toString(),
        "--c-echo", peers.resolve("echo").toString(), "--c-load", peers.resolve("rpcload").toString(),
        "--out", out.toString());
    assertThat(code).as("seeds exit code").isZero();

    Path run;
    try (Stream<Path> runs = Files.list(out)) {
      run = runs.filter(p -> p.getFileName().toString().endsWith("-seeds")).findFirst().orElseThrow();
    }
    for (String f : List.of("table.txt", "results.json", "results.csv", "report.html")) {
      assertThat(run.resolve(f)).isRegularFile();
    }
    Results results = ResultsJson.read(new JsonObject(Files.readString(run.resolve("results.json"))));
    List<String> keys = new ArrayList<>();
    results.tables().forEach(t -> keys.add(t.key()));
    assertThat(keys).containsExactly("000-published", "000", "001-published", "001", "002-published", "002",
        "003-published", "003", "004-published", "004");

    assertThat(rows(results, "000-published")).containsExactly("1KB", "8KB", "16KB", "24KB");
    assertThat(rows(results, "000")).containsExactly("1KB");
    assertThat(table(results, "000").columns()).containsExactly(CloseStorm.COLUMNS.toArray(String[]::new));
    // The storm's losses by where the kernel dropped them, beside wrk's own split.
    assertThat(table(results, "000").metrics()).extracting(io.portshare.bench.results.Metric::key)
        .contains("timeouts", "connectErrors", "readErrors", "ListenOverflows", "TCPSynRetrans");
    assertThat(table(results, "000").title()).contains("wrk timeout 5 s");
    assertThat(rows(results, "001-published")).containsExactly(Published.OLD_001, Published.NEW_001);
    assertThat(rows(results, "001")).containsExactly(SessionLoad.OLD, SessionLoad.NEW, SessionLoad.NGINX);
    assertThat(rows(results, "002")).containsExactly(SendfileLoopback.PINNINGS.toArray(String[]::new));
    assertThat(table(results, "002").columns()).containsExactly(SendfileLoopback.COLUMNS.toArray(String[]::new));
    assertThat(rows(results, "003-published")).contains("4/-s", "8/-r", "16/-R");
    assertThat(rows(results, "003")).containsExactly("one-socket x1", "shared x1", "reuseport x1", "pinned x1",
        "c-epoll x1");
    // 004: the closed loop, then each share, epoll and io_uring side by side with the error columns.
    Table churn = table(results, "004");
    assertThat(rows(results, "004")).containsExactly(ConnectionChurn.CLOSED, "100%", "150%");
    assertThat(churn.columns()).containsExactly(ConnectionChurn.EPOLL, ConnectionChurn.IO_URING);
    assertThat(churn.metrics()).extracting(Metric::key).contains("requestsPerSecond", "asked", "answered", "timeouts",
        "connect", "read", "non2xx", "p99Ms", "serverCores", "clientCores");
    boolean uring = results.meta().get("seed 004 io_uring").endsWith("runs on io_uring");
    for (Row r : churn.rows()) {
      assertThat(r.cell(ConnectionChurn.EPOLL)).as("epoll at %s", r.label()).isNotNull();
      assertThat(r.cell(ConnectionChurn.IO_URING) != null).as("io_uring measured at %s", r.label()).isEqualTo(uring);
    }
    Cell closed = churn.rows().get(0).cell(ConnectionChurn.EPOLL);
    assertThat(closed.median("answered")).as("epoll answered in the closed loop").isPositive();
    Cell past = churn.rows().get(2).cell(ConnectionChurn.EPOLL);
    assertThat(past.median("asked")).as("150%% asks more than the closed loop reached")
        .isGreaterThan(closed.median("requestsPerSecond"));
    assertThat(churn.title()).contains(uring ? "open loop at [100, 150]%" : ConnectionChurn.REFUSED);
    // Every row of ours measured something (or says why not), and every server answered with the right bytes first.
    for (String seed : SeedsCommand.ALL) {
      assertThat(table(results, seed).rows()).allMatch(r -> !r.cells().isEmpty() || r.note() != null);
    }

    String text = Files.readString(run.resolve("table.txt"));
    assertThat(text).contains("Effects the seeds found", "seed 000:", "seed 001:", "seed 002:", "seed 003:",
        "seed 004:", "timeouts", "non-2xx", "published: after/before requests/s 0.33-0.34x", "published: 12 of 12 cells",
        "Seed 003 as published", "Seed 000 on this machine");
    assertThat(results.meta()).containsKeys("seed 000 scaled", "seed 001 scaled", "seed 002 scaled", "seed 003 scaled",
        "seed 004 scaled", "effect, seed 000", "effect, seed 004");
    assertThat(Files.readString(run.resolve("report.html"))).contains("effect, seed 000", "Seed 002 as published");
  }

  private static List<String> rows(Results r, String key) {
    return table(r, key).rows().stream().map(Row::label).toList();
  }

  private static Table table(Results r, String key) {
    return r.tables().stream().filter(t -> t.key().equals(key)).findFirst().orElseThrow();
  }
}
