package io.portshare.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The rpc-server child process(es) of one matrix row: started, waited for until ready on their
 * admin port, and stopped with SIGTERM (then killed if they do not go). Their output goes to a log
 * file per process next to the report.
 */
public final class ServerProcesses implements AutoCloseable {

  private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);
  private static final Pattern INFO_MODE = Pattern.compile("portshare_info\\{[^}]*mode=\"([a-z-]+)\"");

  private final List<Process> processes = new ArrayList<>();
  private final List<Path> logs = new ArrayList<>();
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  private final int firstAdminPort;

  private ServerProcesses(int firstAdminPort) {
    this.firstAdminPort = firstAdminPort;
  }

  /** The command lines of a row: one JVM for shared/reuseport/pinned, W JVMs for processes. */
  static List<List<String>> commands(String java, List<String> jvmOptions, Path jar, String mode, int workers,
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
          "--mode", processes ? "reuseport" : mode,
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
      try (java.net.Socket probe = new java.net.Socket()) {
        probe.connect(new java.net.InetSocketAddress(host, port), 1000);
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
    long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
    URI ready = URI.create("http://127.0.0.1:" + (firstAdminPort + i) + "/health/ready");
    while (System.nanoTime() < deadline) {
      Process p = processes.get(i);
      if (!p.isAlive()) {
        throw new IOException("server exited with code " + p.exitValue() + ": " + lastLine(logs.get(i)));
      }
      try {
        HttpResponse<Void> r = http.send(HttpRequest.newBuilder(ready).timeout(Duration.ofSeconds(2)).build(),
            HttpResponse.BodyHandlers.discarding());
        if (r.statusCode() == 200) {
          return;
        }
      } catch (IOException e) {
        // not listening yet
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted waiting for the server", e);
      }
      sleep(100);
    }
    throw new IOException("server not ready after " + READY_TIMEOUT.toSeconds() + " s; see " + logs.get(i));
  }

  /** Process ids of the servers, whose CPU is read from /proc next to the generator's. */
  List<Long> pids() {
    return processes.stream().map(Process::pid).toList();
  }

  /** The scaling mode the first process says it runs, from its {@code portshare_info} metric. */
  public String reportedMode() {
    try {
      HttpResponse<String> r = http.send(HttpRequest.newBuilder(
          URI.create("http://127.0.0.1:" + firstAdminPort + "/metrics")).timeout(Duration.ofSeconds(5)).build(),
          HttpResponse.BodyHandlers.ofString());
      Matcher m = INFO_MODE.matcher(r.body());
      return m.find() ? m.group(1) : "unknown";
    } catch (IOException e) {
      return "unknown";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
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
