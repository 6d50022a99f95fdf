package io.portshare.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.portshare.kit.FreePorts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code deploy/bench.sh coldstart} end to end, one small round: every target starts, answers and
 * gets its line, nginx from the shared template included (the template once gained a placeholder
 * this script did not fill, and nginx refused to start, seen only as nothing listening), and the
 * raw file's header is the one the figures checker reads. A smoke run, not a measurement.
 */
class ColdstartScriptTest {

  @Test
  void oneRoundGivesEveryTargetItsLine(@TempDir Path dir) throws Exception {
    Path out = dir.resolve("coldstart.txt");
    Map<String, String> env = Map.of("BUILD", "0", "ROUNDS", "1", "JAVAS", "java", "WARMUPS", "0",
        "RATE", "1000", "CONNS", "300", "INTERVALS", "3",
        "PORT", Integer.toString(FreePorts.block(2)), "OUT", out.toString());
    Jars.of("static-server");
    Jars.of("rpc-server");
    ScriptRun.Result r = ScriptRun.run(env, Duration.ofMinutes(4), "bash", ScriptRun.script("bench.sh"), "coldstart");
    assertThat(r.code()).as("stdout %s; stderr %s", r.out(), r.err()).isZero();

    List<String> lines = Files.readAllLines(out);
    assertThat(lines.get(0)).startsWith("# command: ");
    assertThat(lines).anyMatch(l -> l.matches("# commit: [0-9a-f]{40}.*"))
        .anyMatch(l -> l.matches("# load average at start: [0-9.]+ [0-9.]+ [0-9.]+"));
    // target runtime warmup round ready_s answered errors ...: each storm target answered some of its 300.
    for (String target : List.of("static-server java\\d+ 0 1 ", "nginx nginx - 1 ")) {
      assertThat(Integer.parseInt(line(lines, target).split(" ")[5])).as(target).isPositive();
    }
    // ... | first2s warm ratio full_speed_s: the first 2 s answered transactions.
    for (String target : List.of("rpc-server java\\d+ 0 1 ", "c-echo c - 1 ")) {
      assertThat(Integer.parseInt(line(lines, target).split(" \\| ")[1].split(" ")[0])).as(target).isPositive();
    }
  }

  /** A JAVAS entry may name a major release instead of a binary; one that is not installed is refused. */
  @Test
  void aReleaseNotInstalledIsOneLineAndExitTwo(@TempDir Path emptyJvmDir) throws Exception {
    ScriptRun.refused("coldstart: JAVAS names Java 25, and no JDK 25 or later is installed under " + emptyJvmDir,
        Map.of("JAVAS", "java 25:aot", "PORTSHARE_JVM_DIR", emptyJvmDir.toString()), ScriptRun.script("bench.sh"),
        "coldstart");
  }

  private static String line(List<String> lines, String startPattern) {
    return lines.stream().filter(l -> l.matches(startPattern + ".*")).findFirst()
        .orElseThrow(() -> new AssertionError("no line for " + startPattern + " in " + lines));
  }
}
