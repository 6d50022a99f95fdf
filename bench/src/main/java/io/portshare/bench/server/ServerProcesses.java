package io.portshare.bench.server;

import io.portshare.bench.cpu.CpuTime;
import io.portshare.kit.AdminPort;
import io.portshare.kit.ServiceProcess;
import io.portshare.runtime.config.ScalingMode;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The server process(es) of one row, each a kit {@link ServiceProcess} run as given: waited for
 * until ready on their admin port (or, without one, until the port accepts), and stopped with
 * SIGTERM (then killed if they do not go). Their output goes to a log file per process next to the
 * report.
 */
public final class ServerProcesses implements AutoCloseable {

  private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);

  private final List<ServiceProcess> processes = new ArrayList<>();
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
    try {
      for (int i = 0; i < commands.size(); i++) {
        s.processes.add(ServiceProcess.exec(commands.get(i), logDir.resolve(name + (commands.size() > 1 ? "-" + i : "")
            + ".log")));
      }
      for (int i = 0; i < commands.size(); i++) {
        s.awaitReady(i, firstAdminPort + i);
      }
      return s;
    } catch (IOException | RuntimeException e) {
      s.close();
      throw e;
    }
  }

  /** A server without an admin port (the C peer, nginx): ready when its traffic port accepts. */
  public static ServerProcesses startPlain(List<String> command, String host, int port, Path logDir, String name)
      throws IOException {
    ServerProcesses s = new ServerProcesses(-1);
    ServiceProcess p = ServiceProcess.exec(command, logDir.resolve(name + ".log"));
    s.processes.add(p);
    long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
    while (true) {
      if (!p.isAlive()) {
        s.close();
        throw new IOException("server exited: " + lastLine(p));
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

  /**
   * Process ids of the servers and of their children as they are now (a supervisor's workers, nginx's),
   * whose CPU is read from /proc next to the generator's.
   */
  public List<Long> pids() {
    List<Long> out = new ArrayList<>();
    for (ProcessHandle p : handles()) {
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
    for (int i = 0; i < count; i++) {
      awaitReady(0, first + i);
    }
  }

  private void awaitReady(int process, int adminPort) throws IOException {
    ServiceProcess p = processes.get(process);
    if (!new AdminPort(adminPort).awaitReady(READY_TIMEOUT, p::isAlive)) {
      throw new IOException(p.isAlive() ? "admin port " + adminPort + " not ready after " + READY_TIMEOUT.toSeconds()
          + " s: " + lastLine(p) : "server exited: " + lastLine(p));
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

  private static String lastLine(ServiceProcess p) {
    List<String> lines = p.output().lines().filter(l -> !l.isBlank() && !l.startsWith("\tat ")).toList();
    return lines.isEmpty() ? "no output" : lines.get(lines.size() - 1).strip();
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
    return processes.stream().map(ServiceProcess::handle).toList();
  }

  /** SIGTERM to all, then wait for the drain; whatever is still alive after 15 s is killed. */
  @Override
  public void close() {
    processes.forEach(ServiceProcess::terminate);
    for (ServiceProcess p : processes) {
      try {
        p.awaitExit(Duration.ofSeconds(15));
      } catch (IllegalStateException e) {
        // killed by awaitExit: it did not go in time
      } catch (InterruptedException e) {
        p.kill();
        Thread.currentThread().interrupt();
      }
    }
  }
}
