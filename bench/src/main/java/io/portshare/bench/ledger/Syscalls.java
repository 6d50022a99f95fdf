package io.portshare.bench.ledger;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * System calls of a server by name, counted by {@code strace -c} attached to every thread of its
 * processes for one pass of load. strace slows every call it sees, so the counts come from a pass
 * of their own and never from a timed round.
 */
final class Syscalls implements AutoCloseable {

  private final Process strace;
  private final Path output;

  private Syscalls(Process strace, Path output) {
    this.strace = strace;
    this.output = output;
  }

  /** Attaches to every thread of {@code pids} (a JVM's are its tasks); returns once strace says it is attached. */
  static Syscalls attach(List<Long> pids, Path output) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of("strace", "-c", "-f", "-o", output.toString()));
    for (long pid : pids) {
      try (var tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
        tasks.forEach(t -> cmd.addAll(List.of("-p", t.getFileName().toString())));
      }
    }
    Path log = Files.createTempFile("strace", ".log");
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    int tasks = (cmd.size() - 5) / 2;
    // strace prints "Process N attached" once per thread it has stopped and taken over.
    while (System.nanoTime() < deadline && p.isAlive()
        && Files.readAllLines(log).stream().filter(l -> l.contains("attached")).count() < tasks) {
      Thread.sleep(50);
    }
    if (!p.isAlive()) {
      throw new IOException("strace exited with " + p.exitValue() + ": " + Files.readString(log).strip()
          + " (needs strace and the right to trace the server: root, or ptrace_scope 0)");
    }
    Files.deleteIfExists(log);
    return new Syscalls(p, output);
  }

  /** Detaches (strace writes its summary on SIGTERM) and reads the counts. */
  Map<String, Long> stop() throws IOException, InterruptedException {
    strace.destroy();
    if (!strace.waitFor(30, TimeUnit.SECONDS)) {
      strace.destroyForcibly();
      throw new IOException("strace did not detach");
    }
    return parse(Files.readString(output, StandardCharsets.UTF_8));
  }

  @Override
  public void close() {
    if (strace.isAlive()) {
      strace.destroyForcibly();
    }
  }

  /**
   * Calls by name from strace's summary table ({@code % time, seconds, usecs/call, calls, [errors,] syscall}),
   * busiest first as strace orders them; the "total" line is left out.
   */
  static Map<String, Long> parse(String summary) {
    Map<String, Long> calls = new LinkedHashMap<>();
    for (String line : summary.split("\n")) {
      String[] f = line.trim().split("\\s+");
      if (f.length < 5 || !f[0].matches("[\\d.]+") || f[f.length - 1].equals("total")) {
        continue;
      }
      calls.merge(f[f.length - 1], Long.parseLong(f[3]), Long::sum);
    }
    return calls;
  }
}
