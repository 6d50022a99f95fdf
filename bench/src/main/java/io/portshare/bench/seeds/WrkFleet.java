package io.portshare.bench.seeds;

import io.portshare.bench.cpu.CpuTime;
import io.portshare.bench.staticfiles.Wrk;
import io.portshare.bench.staticfiles.WrkResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToLongFunction;

/**
 * Several wrk processes at once, as seed 000's two client machines of 15,000 connections each: one
 * process per URL (each towards its own 127.0.0.x, so that each has a whole ephemeral port range),
 * one thread each, the connections split evenly. A process holds its connections as descriptors,
 * and a process may hold only so many (here 20,000); and one destination gives {@code connect()} about
 * half the ephemeral port range (it picks ports of one parity first): more processes hold more.
 */
final class WrkFleet {

  /** The processes' reports together: requests added, latency averaged by requests, the worst p99. */
  record Run(List<WrkResult> results, CpuTime clientCpu, double wallSeconds) {

    long requests() {
      return results.stream().mapToLong(WrkResult::requests).sum();
    }

    double requestsPerSecond() {
      return results.stream().mapToDouble(WrkResult::requestsPerSecond).sum();
    }

    double latencyAvgUs() {
      long n = requests();
      return n == 0 ? Double.NaN
          : results.stream().mapToDouble(r -> r.latencyAvgUs() * r.requests()).sum() / n;
    }

    /** The slowest process's p99: the fleet's own p99 cannot be had from wrk's summaries. */
    double latencyP99Us() {
      return results.stream().mapToDouble(WrkResult::latencyP99Us).max().orElse(Double.NaN);
    }

    long errors() {
      return results.stream().mapToLong(WrkResult::errors).sum();
    }

    /** One kind of error over the fleet, e.g. {@code WrkResult::timeouts}. */
    long sum(ToLongFunction<WrkResult> kind) {
      return results.stream().mapToLong(kind).sum();
    }
  }

  private final String binary;

  WrkFleet(String binary) {
    this.binary = binary;
  }

  /**
   * One run of the fleet. {@code timeout} is wrk's: a request unanswered that long counts as a timeout
   * (wrk counts again every 2 s while it stays so) and is left out of the latency.
   */
  Run run(List<String> urls, int connections, boolean close, Duration duration, Duration timeout)
      throws IOException, InterruptedException {
    int n = urls.size();
    CpuTime before = CpuTime.ofReapedChildren();
    long start = System.nanoTime();
    List<Process> running = new ArrayList<>();
    List<List<String>> commands = new ArrayList<>();
    try {
      for (int i = 0; i < n; i++) {
        int c = connections / n + (i < connections % n ? 1 : 0);
        List<String> cmd = new Wrk(binary, 1, Math.max(1, c)).command(urls.get(i), close, duration, timeout);
        commands.add(cmd);
        running.add(new ProcessBuilder(cmd).redirectErrorStream(true).start());
      }
      List<String> outputs = new ArrayList<>();
      for (Process p : running) {
        outputs.add(new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
      }
      List<WrkResult> results = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        int code = running.get(i).waitFor();
        if (code != 0) {
          throw new IOException(String.join(" ", commands.get(i)) + " exited with " + code + ": " + outputs.get(i).strip());
        }
        results.add(WrkResult.parse(outputs.get(i)));
      }
      return new Run(results, CpuTime.ofReapedChildren().minus(before), (System.nanoTime() - start) / 1e9);
    } finally {
      running.forEach(Process::destroy);
    }
  }
}
