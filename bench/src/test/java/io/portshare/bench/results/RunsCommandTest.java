package io.portshare.bench.results;

import static org.assertj.core.api.Assertions.assertThat;

import io.portshare.bench.BenchMain;
import io.portshare.bench.HeadlineRuns;
import io.portshare.kit.RawTable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Three runs' tables in, one table out. Ledger runs: the CPU sections and the per-connection passes, each cell
 * over the runs; the system calls by name, whose columns differ from run to run, left out. Latency runs: each
 * percentile over the runs, the flags counted. Storm runs: the seed's sections on this machine, not its
 * published table. Runs of two kinds are refused.
 */
class RunsCommandTest {

  @TempDir
  Path dir;

  @Test
  void combinesTheRatiosTheMicrosecondsAndThePerConnectionPasses() throws Exception {
    assertThat(combine("ledger-runs", "run",
        table(new String[] {"1.14 (1.06-1.16)", "16.5 (15.0-17.2)", "8.4", "2468.7", "futex"}),
        table(new String[] {"1.09 (1.06-1.24)", "15.1 (14.5-16.8)", "8.3", "2510.2", "write"}),
        table(new String[] {"1.13 (1.10-1.15)", "16.0 (15.0-16.9)", "9.1", "2470.0", "close"}))).isZero();

    RawTable combined = RawTable.parse(Files.readString(dir.resolve("combined/table.txt")));
    assertThat(combined.cell("RPC echo:", "rpc-server", "64B|1x")).isEqualTo("1.13 (1.09-1.14)");
    assertThat(combined.cell("RPC echo, one worker", "rpc-server", "64B|1x")).isEqualTo("16.0 (15.1-16.5)");
    assertThat(combined.cell("RPC echo, per connection", "rpc-server", "syscalls")).isEqualTo("8.4 (8.3-9.1)");
    assertThat(combined.cell("RPC echo, per connection", "rpc-server", "alloc B/conn"))
        .isEqualTo("2470.0 (2468.7-2510.2)");
    assertThat(combined.cell("RPC echo, per connection", "c-echo", "alloc B/conn")).isEqualTo("-");
    // A column's name longer than its cells still stands apart from the next.
    assertThat(combined.cell("RPC echo, per connection", "rpc-server", "of it busiest thread B/conn"))
        .isEqualTo("2470.0 (2468.7-2510.2)");
    assertThat(Files.readString(dir.resolve("combined/table.txt")))
        .contains("RPC echo, per connection of the first one-per-connection column: median over 3 runs of each run's figure");
  }

  @Test
  void combinesLatencyRunsPercentileByPercentileAndCountsTheFlags() throws Exception {
    assertThat(combine("runs", "latency", latency(new String[] {"2.11", "-", "16.0"}, false),
        latency(new String[] {"1.90", "FLAGGED", "16.4"}, true), latency(new String[] {"2.50", "-", "15.2"}, false)))
        .isZero();

    String text = Files.readString(dir.resolve("combined/table.txt"));
    RawTable combined = RawTable.parse(text);
    assertThat(combined.cell("1k.bin keep-alive", "static-server 80%", "p99")).isEqualTo("2.11 (1.90-2.50)");
    assertThat(combined.cell("1k.bin keep-alive", "static-server 80%", "flag")).isEqualTo("- (2 of 3); FLAGGED (1 of 3)");
    assertThat(combined.cell("1k.bin keep-alive", "nginx 80%", "p99")).isEqualTo("16.0 (15.2-16.4)");
    assertThat(combined.cell("1k.bin keep-alive", "nginx 80%", "flag")).isEqualTo("-");
    // A rate past the maximum only one run reached has no figure over the runs.
    assertThat(combined.cell("1k.bin keep-alive", "nginx 120%", "p99")).isEqualTo("-");
    assertThat(text).contains("portshare latency over runs").contains("1k.bin keep-alive: median over 3 runs of each"
        + " run's figure (min-max over runs), from: 1k.bin keep-alive (latency in ms");
  }

  @Test
  void combinesStormRunsFromTheSeedsSectionsOnThisMachine() throws Exception {
    assertThat(combine("runs", "storm", storm(new String[] {"306620", "0", "14000"}),
        storm(new String[] {"300100", "12", "16000"}), storm(new String[] {"310000", "3", "15000"}))).isZero();

    RawTable combined = RawTable.parse(Files.readString(dir.resolve("combined/table.txt")));
    assertThat(combined.cell("Seed 000 on this machine :: requests answered (median)", "1KB", "static-server"))
        .isEqualTo("306620 (300100-310000)");
    assertThat(combined.cell("Seed 000 on this machine :: of them timeouts (median)", "1KB", "static-server"))
        .isEqualTo("3 (0-12)");
    assertThat(combined.cell("Seed 000 on this machine", "1KB", "static-server"))
        .isEqualTo("disagree (14000-16000) !");
  }

  @Test
  void refusesRunsOfTwoKinds() throws Exception {
    assertThat(combine("runs", "mixed", storm(new String[] {"1", "1", "1"}), storm(new String[] {"1", "1", "1"}),
        latency(new String[] {"1", "-", "1"}, false))).isEqualTo(2);
    assertThat(dir.resolve("combined/table.txt")).doesNotExist();
  }

  /** The combined tables README's headline quotes, each with the three runs it was made from. */
  static Stream<String> headlineCombinations() {
    return HeadlineRuns.COMBINATIONS.stream();
  }

  @ParameterizedTest
  @MethodSource("headlineCombinations")
  void combinesTheHeadlinesCommittedRunsAgainAsCommitted(String combination) throws Exception {
    Path committed = HeadlineRuns.combination(combination);
    List<String> args = new ArrayList<>(List.of("runs", "--out", dir.toString()));
    for (String run : List.of("run-1", "run-2", "run-3")) {
      args.add(committed.resolve(run).toString());
    }
    assertThat(BenchMain.execute(args.toArray(String[]::new))).isZero();
    // The first line is the command that combined them, which names its own --out.
    assertThat(withoutCommand(Files.readString(dir.resolve("table.txt"))))
        .isEqualTo(withoutCommand(Files.readString(committed.resolve("table.txt"))));
  }

  private static String withoutCommand(String table) {
    assertThat(table).startsWith("command: ");
    return table.substring(table.indexOf('\n') + 1);
  }

  /** {@code command} (runs or its alias) over one run directory per table, {@code name-1} and on, into combined/. */
  private int combine(String command, String name, String... tables) throws IOException {
    List<String> args = new ArrayList<>(List.of(command, "--out", dir.resolve("combined").toString()));
    for (int i = 0; i < tables.length; i++) {
      Path run = Files.createDirectories(dir.resolve(name + "-" + (i + 1)));
      Files.writeString(run.resolve("table.txt"), tables[i]);
      args.add(run.toString());
    }
    return BenchMain.execute(args.toArray(String[]::new));
  }

  private static String latency(String[] c, boolean past) {
    return """
        portshare latency: open loop from the due time

        command: deploy/bench.sh latency --out bench-results
        commit: 0123456789abcdef0123456789abcdef01234567
        pinning: server on CPU 0, generator on CPU 1 (taskset -a -p)
        load average at start: 0.10 0.20 0.30

        1k.bin keep-alive (latency in ms; rate per second; CPU in cores)
        server at share       asked  reached   p50   p99  flag
        nginx 80%%            38683  38683.0  0.85  %3$s  -
        static-server 80%%    38683  38683.0  0.25  %1$s  %2$s
        """.formatted((Object[]) c) + (past ? "nginx 120%            58000  50000.0  9.00  99.0  FLAGGED\n" : "");
  }

  private static String storm(String[] c) {
    return """
        Effects the seeds found, and whether this run shows them
          seed 000: after/before requests/s below 1 at every size

        command: deploy/bench.sh seeds --seed 000 --sizes 1k.bin --rounds 3 --out bench-results
        portshare: the five source experiments, published and on this machine
          commit: 0123456789abcdef0123456789abcdef01234567
          load average at start: 2.87 4.05 5.34

        Seed 000 (published): requests/s
             before  after
        1KB   1000   330

        requests answered (median)
             before  after
        1KB     10      3

        Seed 000 on this machine: 30000 concurrent Connection: close connections, requests/s, median of 3 rounds (min-max)
             static-server
        1KB  %3$s (%3$s-%3$s) !

        requests answered (median)
             static-server
        1KB         %1$s

        of them timeouts (median)
             static-server
        1KB         %2$s
        """.formatted((Object[]) c);
  }

  private static String table(String[] c) {
    return """
        command: deploy/bench.sh ledger --rows c-echo,rpc-server --columns 64B|1x
        portshare ledger: the cost of one connection
          commit: 0123456789abcdef0123456789abcdef01234567
          pinning: apart: the server on CPU 1 (taskset -c 1), the client and the driver on CPU 0
          load average at start: 0.10 0.20 0.30

        RPC echo, one worker each side, per transaction (= connection at 1x): server CPU µs per operation, median of 3 rounds (min-max)
                                64B|1x
        c-echo        14.4 (14.0-15.1)
        rpc-server    %2$s

        RPC echo, by name: system calls per connection (strace -c, untimed pass)
                      %5$s
        rpc-server       1.0

        RPC echo, per connection of the first one-per-connection column: per connection
                      syscalls  alloc B/conn  of it busiest thread B/conn
        c-echo             8.1             -                            -
        rpc-server        %3$s        %4$s                       %4$s

        RPC echo: each row over c-echo: server CPU per operation over the floor's, round by round, median of 3 rounds (min-max)
                                64B|1x
        rpc-server    %1$s
        """.formatted((Object[]) c);
  }
}
