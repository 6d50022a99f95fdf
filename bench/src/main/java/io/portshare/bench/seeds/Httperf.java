package io.portshare.bench.seeds;

import io.portshare.bench.cpu.CpuTime;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs httperf, the load generator of seed 001, one process or several side by side (each
 * towards its own 127.0.0.x, so that TIME_WAIT of one does not block another's ports), and reads its
 * report. Its CPU is this JVM's reaped-children CPU around the run, as for wrk.
 */
final class Httperf {

  /** What one httperf printed: connections, requests and replies, the run's length, its request rate and errors. */
  record Result(long connections, long requests, long replies, double seconds, double requestRate, long errors) {

    private static final Pattern TOTAL = Pattern.compile(
        "Total: connections (\\d+) requests (\\d+) replies (\\d+) test-duration ([\\d.]+) s");
    private static final Pattern RATE = Pattern.compile("Request rate: ([\\d.]+) req/s");
    private static final Pattern ERRORS = Pattern.compile("Errors: total (\\d+)");

    /** Reads httperf's report; fails with the output when the totals are missing (httperf did not run). */
    static Result parse(String out) {
      Matcher t = TOTAL.matcher(out);
      if (!t.find()) {
        throw new IllegalStateException("no \"Total: connections\" line in httperf's output:\n" + out.strip());
      }
      Matcher r = RATE.matcher(out);
      Matcher e = ERRORS.matcher(out);
      return new Result(Long.parseLong(t.group(1)), Long.parseLong(t.group(2)), Long.parseLong(t.group(3)),
          Double.parseDouble(t.group(4)), r.find() ? Double.parseDouble(r.group(1)) : 0,
          e.find() ? Long.parseLong(e.group(1)) : 0);
    }
  }

  /**
   * Several processes run together: their results, their CPU together, the wall time of the whole, and
   * whether they were stopped at the time limit (their counts then cover the time they ran).
   */
  record Run(List<Result> results, CpuTime clientCpu, double wallSeconds, boolean cut) {

    /** The processes' request rates added up: they ran side by side. */
    double requestRate() {
      return results.stream().mapToDouble(Result::requestRate).sum();
    }

    long replies() {
      return results.stream().mapToLong(Result::replies).sum();
    }

    long connections() {
      return results.stream().mapToLong(Result::connections).sum();
    }

    long errors() {
      return results.stream().mapToLong(Result::errors).sum();
    }
  }

  private final String binary;
  private final Duration limit;

  /**
   * {@code limit}: how long a run may take; httperf's sessions and connections are counts, and a
   * server that answers slowly would stretch the run without end. At the limit each httperf gets
   * SIGINT, on which it prints its report of what it did so far.
   */
  Httperf(String binary, Duration limit) {
    this.binary = binary;
    this.limit = limit;
  }

  /** {@code load}: the flags after server, port and URI, e.g. {@code --wsess=5000,1,1 --max-conn=4}. */
  List<String> command(String host, int port, String uri, List<String> load) {
    List<String> cmd = new ArrayList<>(List.of(binary, "--server", host, "--port", Integer.toString(port),
        "--uri", uri));
    cmd.addAll(load);
    return cmd;
  }

  /** One process per host in {@code hosts}, all started together; returns when all have ended. */
  Run run(List<String> hosts, int port, String uri, List<String> load) throws IOException, InterruptedException {
    CpuTime before = CpuTime.ofReapedChildren();
    long start = System.nanoTime();
    List<Process> running = new ArrayList<>();
    List<List<String>> commands = new ArrayList<>();
    try {
      for (String h : hosts) {
        List<String> cmd = command(h, port, uri, load);
        commands.add(cmd);
        running.add(new ProcessBuilder(cmd).redirectErrorStream(true).start());
      }
      long deadline = start + limit.toNanos();
      boolean cut = false;
      for (Process p : running) {
        if (!p.waitFor(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
          cut = true;
          interrupt(p);
        }
      }
      List<String> outputs = new ArrayList<>();
      for (Process p : running) {
        outputs.add(new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
      }
      List<Result> results = new ArrayList<>();
      for (int i = 0; i < running.size(); i++) {
        int code = running.get(i).waitFor();
        if (code != 0 && !cut) {
          throw new IOException(String.join(" ", commands.get(i)) + " exited with " + code + ": " + outputs.get(i).strip());
        }
        results.add(Result.parse(outputs.get(i)));
      }
      double wall = (System.nanoTime() - start) / 1e9;
      return new Run(results, CpuTime.ofReapedChildren().minus(before), wall, cut);
    } finally {
      running.forEach(Process::destroy);
    }
  }

  /** SIGINT: httperf stops and prints its report (SIGTERM would end it silently). */
  private static void interrupt(Process p) throws IOException, InterruptedException {
    new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).start().waitFor(5, TimeUnit.SECONDS);
    if (!p.waitFor(10, TimeUnit.SECONDS)) {
      p.destroyForcibly();
    }
  }
}
