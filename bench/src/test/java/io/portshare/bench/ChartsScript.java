package io.portshare.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** Runs deploy/bench-charts.sh (gnuplot) on a run's directory, as {@code deploy/bench.sh charts DIR} does. */
public final class ChartsScript {

  private ChartsScript() {}

  /** What the script printed; fails when it exits other than 0 (gnuplot missing included). */
  public static String draw(Path dir) throws IOException, InterruptedException {
    Path script = Path.of("..", "deploy", "bench-charts.sh").toAbsolutePath().normalize();
    Process p = new ProcessBuilder(script.toString(), dir.toString()).redirectErrorStream(true).start();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("bench-charts.sh finished").isTrue();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.exitValue()).as(out).isZero();
    return out;
  }
}
