package io.portshare.bench.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import io.portshare.bench.BenchMain;
import io.portshare.kit.RawTable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three runs' tables in, one table out: the CPU sections and the per-connection passes, each cell over the runs;
 * the system calls by name, whose columns differ from run to run, left out.
 */
class LedgerRunsCommandTest {

  @TempDir
  Path dir;

  @Test
  void combinesTheRatiosTheMicrosecondsAndThePerConnectionPasses() throws Exception {
    List<String> runs = new ArrayList<>(List.of("ledger-runs", "--out", dir.resolve("combined").toString()));
    String[][] cells = {
        {"1.14 (1.06-1.16)", "16.5 (15.0-17.2)", "8.4", "2468.7", "futex"},
        {"1.09 (1.06-1.24)", "15.1 (14.5-16.8)", "8.3", "2510.2", "write"},
        {"1.13 (1.10-1.15)", "16.0 (15.0-16.9)", "9.1", "2470.0", "close"}};
    for (int i = 0; i < cells.length; i++) {
      Path run = Files.createDirectories(dir.resolve("run-" + (i + 1)));
      Files.writeString(run.resolve("table.txt"), table(cells[i]));
      runs.add(run.toString());
    }
    assertThat(BenchMain.execute(runs.toArray(String[]::new))).isZero();

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
