package io.portshare.bench.ledger;

import io.portshare.kit.FreePorts;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.portshare.bench.BenchMain;
import io.portshare.runtime.Units;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The ledger's plumbing, end to end on tiny settings: the C echo server and plain Netty for RPC,
 * nginx and plain Netty for HTTP, every pass once. Its figures are not judged (a test is no
 * benchmark), only that every table has every row and each pass counted something, and that the
 * dynamic column is measured on nginx ({@code return 200}) and left out of plain Netty's row, which has
 * no such route.
 */
class LedgerCommandTest {

  @TempDir
  Path dir;

  @Test
  void oneTinyRunFillsEveryTable() throws Exception {
    Optional<String> gcc = find("gcc");
    Optional<String> strace = find("strace");
    Optional<String> wrk = find("wrk");
    Optional<String> nginx = find("nginx", "/usr/sbin/nginx");
    boolean all = gcc.isPresent() && strace.isPresent() && wrk.isPresent() && nginx.isPresent();
    if (!all && "true".equals(System.getenv("CI"))) {
      throw new AssertionError("CI has gcc, strace, wrk and nginx (.ci/run installs them): gcc " + gcc + ", strace "
          + strace + ", wrk " + wrk + ", nginx " + nginx);
    }
    assumeTrue(all, "needs gcc, strace, wrk and nginx");
    Path echo = build("echo");
    Path rpcload = build("rpcload");
    int port = FreePorts.block(40); // four rows, ten ports each
    Path out = dir.resolve("out");
    CommandLine cl = new CommandLine(new BenchMain()).registerConverter(Duration.class, Units::duration);
    int code = cl.execute("ledger", "--rows", "c-echo,netty-echo,nginx,netty-http", "--columns", "64B|1x,1k.bin close,hello close",
        "--rounds", "2", "--duration", "1s", "--warmup", "0", "--server-warmup", "2s", "--server-warmup-max", "2s", "--syscall-pass", "1s",
        "--alloc-pass", "1s", "--held", "50", "--connections", "4", "--port", Integer.toString(port),
        "--classpath", System.getProperty("java.class.path"), "--c-echo", echo.toString(), "--c-load", rpcload.toString(),
        "--wrk", wrk.get(), "--nginx", nginx.get(), "--nginx-template", "peers/nginx-static.conf.template",
        "--out", out.toString());
    assertThat(code).isZero();
    Path run;
    try (Stream<Path> runs = Files.list(out)) {
      run = runs.filter(p -> p.getFileName().toString().endsWith("-ledger")).findFirst().orElseThrow();
    }
    for (String f : List.of("table.txt", "rounds.txt", "results.json", "results.csv", "report.html",
        "strace-c-echo.txt", "strace-netty-echo.txt", "strace-nginx.txt", "strace-netty-http.txt")) {
      assertThat(run.resolve(f)).isRegularFile();
    }
    List<String> rounds = Files.readAllLines(run.resolve("rounds.txt"));
    // the header, then 2 rounds of: 2 RPC servers on 64B|1x, nginx on both HTTP columns, netty-http on 1k.bin alone
    assertThat(rounds).hasSize(1 + 2 * (2 + 2 + 1));
    assertThat(rounds.subList(1, rounds.size())).allSatisfy(l -> assertThat(Long.parseLong(l.split(" ")[4])).isPositive());
    assertThat(rounds).anyMatch(l -> l.startsWith("http hello_close nginx "))
        .noneMatch(l -> l.startsWith("http hello_close netty-http "));
    String table = Files.readString(run.resolve("table.txt"));
    assertThat(table).contains("RPC echo, by name", "static files, by name", "accept4", "netty-echo:", "nginx:", "alloc B/conn",
        "not applicable netty-http: hello close (no such route: left out, not measured)")
        .doesNotContain("failed check", "NaN");
    String headline = table.substring(table.indexOf("Headline"));
    assertThat(headline).containsPattern("(?m)^nginx: .* hello close [0-9.]+ µs$")
        .containsPattern("(?m)^netty-http:  1k.bin close [0-9.]+ µs \\([0-9.]+x\\)$");
    Map<String, Long> calls = Syscalls.parse(Files.readString(run.resolve("strace-c-echo.txt")));
    assertThat(calls).containsKeys("accept4", "close");
  }

  @Test
  void stracesSummaryAndJdkToolsAreReadRight() {
    Map<String, Long> calls = Syscalls.parse("""
        % time     seconds  usecs/call     calls    errors syscall
        ------ ----------- ----------- --------- --------- ----------------
         70.08    0.555414         770       721       343 futex
          1.16    0.009205           3      2656           epoll_ctl
        ------ ----------- ----------- --------- --------- ----------------
        100.00    0.792554          74      3377       343 total
        """);
    assertThat(calls).containsExactly(Map.entry("futex", 721L), Map.entry("epoll_ctl", 2656L));
    assertThat(JvmProbe.parseAllocated("""
        "main" #1 prio=5 os_prio=0 cpu=972.53ms elapsed=5.01s allocated=12K defined_classes=1436 tid=0x1 nid=0x2 waiting
        "vert.x-eventloop-thread-0" #20 prio=5 os_prio=0 cpu=1.0ms elapsed=4.77s allocated=3M defined_classes=0 tid=0x2
        "Finalizer" #3 daemon prio=8 os_prio=0 cpu=0.66ms elapsed=4.77s allocated=0B defined_classes=0 tid=0x3
        """)).containsExactly(Map.entry("main", 12L << 10), Map.entry("vert.x-eventloop-thread-0", 3L << 20),
        Map.entry("Finalizer", 0L));
    assertThat(JvmProbe.parseGcSeconds("""
         S0C    S1C    S0U    S1U      EC       EU        OC         OU       MC     MU    CCSC   CCSU   YGC     YGCT    FGC    FGCT     CGC    CGCT     GCT
         0.0   0.0    0.0    0.0   23552.0   4096.0   238592.0     0.0    384.0   94.1   128.0    8.6       0    0.000   0      0.000   0      0.000    0.125
        """)).isEqualTo(0.125);
  }

  @Test
  void aVariantNamesItsBaseJarAndFlags() {
    Contenders.Spec s = Contenders.Spec.variant("rpc-server-b=rpc-server jar=other.jar java=/opt/jdk/bin/java "
        + "arg=--idle-timeout=0 -XX:+UseParallelGC -Dx=1");
    assertThat(s).isEqualTo(new Contenders.Spec("rpc-server-b", "rpc-server", "other.jar", "/opt/jdk/bin/java",
        List.of("-XX:+UseParallelGC", "-Dx=1"), List.of("--idle-timeout=0")));
    assertThat(s.kind()).isEqualTo(Contender.Kind.RPC);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> Contenders.Spec.variant("x=nginx"))
        .hasMessageContaining("BASE is a JVM row");
  }

  private Path build(String name) throws IOException, InterruptedException {
    Path binary = dir.resolve(name);
    Process p = new ProcessBuilder("gcc", "-O2", "-pthread", "-o", binary.toString(),
        Path.of("peers/c-echo/" + name + ".c").toAbsolutePath().toString()).inheritIO().start();
    assertThat(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0).as("gcc built " + name).isTrue();
    return binary;
  }

  private static Optional<String> find(String name, String... usual) {
    for (String d : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      if (!d.isEmpty() && Files.isExecutable(Path.of(d, name))) {
        return Optional.of(Path.of(d, name).toString());
      }
    }
    return Stream.of(usual).filter(u -> Files.isExecutable(Path.of(u))).findFirst();
  }
}
