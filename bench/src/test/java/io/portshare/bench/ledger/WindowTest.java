package io.portshare.bench.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import io.portshare.bench.BenchMain;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The window options, declared once, with each command's own defaults; a bad duration, or connections out of range,
 * is one line and exit 2.
 */
class WindowTest {

  @ParameterizedTest
  @CsvSource({"ledger, 4s, 1s, 6s, 32", "latency, 10s, 2s, 10s, 64"})
  void eachCommandShowsItsOwnDefaults(String command, String duration, String warmup, String serverWarmup,
      String connections) {
    String help = run(System.out, command, "--help").replaceAll("\\s+", " ");
    assertThat(help).contains("measured per window (default: " + duration + ")",
        "unmeasured load before each window (default: " + warmup + ")",
        "for the JIT (default: " + serverWarmup + ")", "at a time (default: " + connections + ")");
  }

  @ParameterizedTest
  @CsvSource({"ledger, --duration", "ledger, --warmup", "ledger, --server-warmup", "latency, --duration",
      "latency, --warmup", "latency, --server-warmup"})
  void aBadDurationIsOneLineNamingTheFlag(String command, String flag) {
    String said = run(System.err, command, flag, "3x");
    assertThat(said.lines().count()).as(said).isEqualTo(1);
    assertThat(said).startsWith("portshare-bench: invalid value for " + flag + ": 3x; expected a duration");
  }

  @ParameterizedTest
  @CsvSource({"ledger, 0", "ledger, 10001", "latency, 0", "latency, 10001"})
  void connectionsOutOfRangeAreOneLineNamingTheFlag(String command, String connections) {
    String said = run(System.err, command, "--connections", connections);
    assertThat(said.lines().count()).as(said).isEqualTo(1);
    assertThat(said).startsWith("portshare-bench: invalid value for --connections: " + connections + "; expected 1..10000");
  }

  /** What the command printed on {@code stream} (System.out or System.err); exit 2 expected unless --help. */
  private static String run(PrintStream stream, String... args) {
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    PrintStream saved = stream;
    PrintStream into = new PrintStream(captured, true, StandardCharsets.UTF_8);
    boolean out = stream == System.out;
    if (out) {
      System.setOut(into);
    } else {
      System.setErr(into);
    }
    int code;
    try {
      code = BenchMain.execute(args);
    } finally {
      if (out) {
        System.setOut(saved);
      } else {
        System.setErr(saved);
      }
    }
    assertThat(code).as(String.join(" ", args)).isEqualTo(args[1].equals("--help") ? 0 : 2);
    return captured.toString(StandardCharsets.UTF_8);
  }
}
