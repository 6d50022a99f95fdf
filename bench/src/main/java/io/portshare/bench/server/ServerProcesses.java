package io.portshare.bench.server;

import io.portshare.bench.cpu.CpuTime;
import io.portshare.kit.AdminPort;
import io.portshare.runtime.config.ScalingMode;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The rpc-server child process(es) of one matrix row: started, waited for until ready on their
 * admin port, and stopped with SIGTERM (then killed if they do not go). Their output goes to a log
 * file per process next to the report.
 */
public final class ServerProcesses implements AutoCloseable {

  private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);

  private final List<Process> processes = new ArrayList<>();
  private final List<Path> logs = new ArrayList<>();
  private final int firstAdminPort;

  private ServerProcesses(int firstAdminPort) {
    this.firstAdminPort = firstAdminPort;
  }

  /** The command lines of a row: one JVM for shared/reuseport/pinned, W JVMs for processes. */
  public static List<List<String>> commands(String java, List<String> jvmOptions, Path jar, String mode, int workers,
      String host, int port) {
    List<List<String>> out = new ArrayList<>();
    boolean processes = "processes".equals(mode);
    int count = processes ? workers : 1;
    for (int i = 0; i < count; i++) {
      List<String> cmd = new ArrayList<>();
      cmd.add(java);
      cmd.addAll(jvmOptions);
      cmd.addAll(List.of("-jar", jar.toString(),
          "--host", host, "--port", Integer.toString(port), "--admin-port", Integer.toString(port + 1 + i),
          "--instances", Integer.toString(processes ? 1 : workers),
          "--mode", processes ? ScalingMode.REUSEPORT.label() : mode,
          "--drain-timeout", "2s"));
      out.add(cmd);
    }
    return out;
  }

  public static ServerProcesses start(List<List<String>> commands, int firstAdminPort, Path logDir, String name)
      throws IOException {
    ServerProcesses s = new ServerProcesses(firstAdminPort);
    Files.createDirectories(logDir);
    try {
      for (int i = 0; i < commands.size(); i++) {
        Path log = logDir.resolve(name + (commands.size() > 1 ? "-" + i : "") + ".log");
        s.logs.add(log);
        s.processes.add(new ProcessBuilder(commands.get(i)).redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start());
      }
      for (int i = 0; i < commands.size(); i++) {
        s.awaitReady(i);
      }
      return s;
    } catch (IOException | RuntimeException e) {
      s.close();
      throw e;
    }
  }

  /** A server without an admin port (the C peer): ready when its traffic port accepts. */
  public static ServerProcesses startPlain(List<String> command, String host, int port, Path logDir, String name)
      throws IOException {
    ServerProcesses s = new ServerProcesses(-1);
    Files.createDirectories(logDir);
    Path log = logDir.resolve(name + ".log");
    s.logs.add(log);
    s.processes.add(new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start());
    long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
    while (true) {
      Process p = s.processes.get(0);
      if (!p.isAlive()) {
        s.close();
        throw new IOException("server exited with code " + p.exitValue() + ": " + lastLine(log));
      }
      try (Socket probe = new Socket()) {
        probe.connect(new InetSocketAddress(host, port), 1000);
        return s;
      } catch (IOException e) {
        if (System.nanoTime() > deadline) {
          s.close();
          throw new IOException("server not accepting on port " + port + " after " + READY_TIMEOUT.toSeconds() + " s");
        }
      }
      sleep(100);
    }
  }

  private void awaitReady(int i) throws IOException {
    Process p = processes.get(i);
    if (!new AdminPort(firstAdminPort + i).awaitReady(READY_TIMEOUT, p::isAlive)) {
      if (!p.isAlive()) {
        throw new IOException("server exited with code " + p.exitValue() + ": " + lastLine(logs.get(i)));
      }
      throw new IOException("server not ready after " + READY_TIMEOUT.toSeconds() + " s; see " + logs.get(i));
    }
  }

  /**
   * Process ids of the servers and of their children as they are now (a supervisor's workers, nginx's),
   * whose CPU is read from /proc next to the generator's.
   */
  public List<Long> pids() {
    List<Long> out = new ArrayList<>();
    for (Process p : processes) {
      out.add(p.pid());
      p.descendants().forEach(d -> out.add(d.pid()));
    }
    return out;
  }

  /**
   * Waits until the admin ports {@code first} .. {@code first + count - 1} say ready: the children of a
   * supervisor, which numbers their admin ports from its own {@code --admin-port}.
   */
  public void awaitAdmin(int first, int count) throws IOException {
    Process p = processes.get(0);
    for (int i = 0; i < count; i++) {
      if (!new AdminPort(first + i).awaitReady(READY_TIMEOUT, p::isAlive)) {
        if (!p.isAlive()) {
          throw new IOException("server exited with code " + p.exitValue() + ": " + lastLine(logs.get(0)));
        }
        throw new IOException("admin port " + (first + i) + " not ready after " + READY_TIMEOUT.toSeconds() + " s; see "
            + logs.get(0));
      }
    }
  }

  /** The scaling mode the first process says it runs, from its {@code portshare_info} metric. */
  public String reportedMode() {
    try {
      return new AdminPort(firstAdminPort).metrics().named("portshare_info").stream()
          .map(s -> s.labels().get("mode")).findFirst().orElse("unknown");
    } catch (IOException | IllegalArgumentException e) {
      return "unknown";
    }
  }

  private static String lastLine(Path log) {
    try {
      List<String> lines = Files.readAllLines(log);
      for (int i = lines.size() - 1; i >= 0; i--) {
        if (!lines.get(i).isBlank() && !lines.get(i).startsWith("\tat ")) {
          return lines.get(i).strip();
        }
      }
    } catch (IOException e) {
      // fall through
    }
    return "no output (" + log + ")";
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** User and system CPU of the started processes and their children (nginx's workers) so far. */
  public CpuTime cpu() {
    double user = 0;
    double system = 0;
    for (ProcessHandle h : handles()) {
      CpuTime t = CpuTime.ofTree(h);
      user += t.userSeconds();
      system += t.systemSeconds();
    }
    return new CpuTime(user, system);
  }

  /** The started processes, e.g. to read their CPU time from {@code /proc}. */
  public List<ProcessHandle> handles() {
    return processes.stream().map(Process::toHandle).toList();
  }

  /** SIGTERM to all, then wait for the drain; whatever is still alive after 15 s is killed. */
  @Override
  public void close() {
    processes.forEach(Process::destroy);
    for (Process p : processes) {
      try {
        if (!p.waitFor(15, TimeUnit.SECONDS)) {
          p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        }
      } catch (InterruptedException e) {
        p.destroyForcibly();
        Thread.currentThread().interrupt();
      }
    }
  }
}
