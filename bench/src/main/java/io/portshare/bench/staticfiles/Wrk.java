package io.portshare.bench.staticfiles;

import io.portshare.bench.cpu.CpuTime;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs wrk, the HTTP load generator (as {@code bench/peers/c-echo}'s load tool is for RPC), and
 * measures its own CPU time: it is this JVM's child, so its CPU shows in our {@code cutime}/{@code cstime}
 * once it has been waited for. Runs are sequential; nothing else this JVM starts exits meanwhile.
 */
public final class Wrk {

  /** One run: wrk's report, the CPU it used, and how long it took. */
  public record Run(WrkResult result, CpuTime clientCpu, double wallSeconds) {}

  private final String binary;
  private final int threads;
  private final int connections;

  public Wrk(String binary, int threads, int connections) {
    this.binary = binary;
    this.threads = threads;
    this.connections = connections;
  }

  /**
   * The command line of one run whose {@code --timeout} is {@code timeout}. wrk's timeout is the top of its
   * latency histogram: a response later than it is counted as a "timeout" and left out of the latency
   * figures, though it arrived. A run that must count every response in its latency sets it above the
   * run's length.
   */
  public List<String> command(String url, boolean close, Duration duration, Duration timeout) {
    List<String> cmd = command(url, close, duration);
    cmd.addAll(cmd.size() - 1, List.of("--timeout", Math.max(1, timeout.toSeconds()) + "s"));
    return cmd;
  }

  public int threads() {
    return threads;
  }

  public int connections() {
    return connections;
  }

  /** The command line of one run; whole seconds, at least one (wrk's -d has no finer unit that all versions read). */
  public List<String> command(String url, boolean close, Duration duration) {
    List<String> cmd = new ArrayList<>(List.of(binary, "-t" + threads, "-c" + connections,
        "-d" + Math.max(1, duration.toSeconds()) + "s", "--latency"));
    if (close) {
      cmd.addAll(List.of("-H", "Connection: close"));
    }
    cmd.add(url);
    return cmd;
  }

  public Run run(String url, boolean close, Duration duration) throws IOException, InterruptedException {
    List<String> cmd = command(url, close, duration);
    CpuTime before = CpuTime.ofReapedChildren();
    long start = System.nanoTime();
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    int code = p.waitFor();
    double wall = (System.nanoTime() - start) / 1e9;
    CpuTime used = CpuTime.ofReapedChildren().minus(before);
    if (code != 0) {
      throw new IOException(String.join(" ", cmd) + " exited with " + code + ": " + out.strip());
    }
    return new Run(WrkResult.parse(out), used, wall);
  }
}
