package io.portshare.soak;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** A service jar run as its own process, as an operator runs it; read from outside, through /proc and /metrics. */
final class ServerProcess implements AutoCloseable {

  private static final Pattern BANNER = Pattern.compile("ready in \\d+ ms: .* port=(\\d+) admin-port=(\\d+)");

  private final Process process;
  private final List<String> lines = new ArrayList<>();
  private final CountDownLatch ready = new CountDownLatch(1);
  private volatile int port = -1;
  private volatile int adminPort = -1;

  private ServerProcess(Process process) {
    this.process = process;
    Thread t = new Thread(this::pump, "server-output-" + process.pid());
    t.setDaemon(true);
    t.start();
  }

  /** {@code [prefix...] java -Xmx256m -jar JAR flags}; the prefix may put it in a network namespace. */
  static ServerProcess start(Path jar, List<String> prefix, String... flags) throws IOException {
    if (!Files.isRegularFile(jar)) {
      throw new IOException("no service jar at " + jar + " (build it: ./mvnw -q -B package -DskipTests)");
    }
    List<String> cmd = new ArrayList<>(prefix);
    cmd.addAll(List.of(javaBin(), "-Xmx256m", "-XX:+ExitOnOutOfMemoryError", "-jar", jar.toString()));
    cmd.addAll(List.of(flags));
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
    // The servers warm up as an operator's do: a cold JVM on a busy machine reads a burst sent right
    // after ready slowly enough to trip the drain's quiet test (sigterm-rpc lost 800 of 3200 frames).
    pb.environment().keySet().removeIf(k -> k.startsWith("PORTSHARE_"));
    return new ServerProcess(pb.start());
  }

  static String javaBin() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  private void pump() {
    try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = in.readLine()) != null) {
        synchronized (lines) {
          lines.add(line);
        }
        Matcher m = BANNER.matcher(line);
        if (m.find()) {
          port = Integer.parseInt(m.group(1));
          adminPort = Integer.parseInt(m.group(2));
          ready.countDown();
        }
      }
    } catch (IOException e) {
      // The process is gone; its exit code says the rest.
    }
  }

  ServerProcess awaitReady(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!ready.await(100, TimeUnit.MILLISECONDS)) {
      if (!process.isAlive() || System.nanoTime() > deadline) {
        throw new IllegalStateException("service did not become ready (alive=" + process.isAlive() + "):\n" + output());
      }
    }
    return this;
  }

  int port() {
    return port;
  }

  int adminPort() {
    return adminPort;
  }

  long pid() {
    return process.pid();
  }

  boolean isAlive() {
    return process.isAlive();
  }

  /** SIGTERM: the drain. */
  void terminate() {
    process.toHandle().destroy();
  }

  /** SIGKILL. */
  void kill() {
    process.toHandle().destroyForcibly();
  }

  int awaitExit(Duration timeout) throws InterruptedException {
    if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      process.destroyForcibly();
      throw new IllegalStateException("process " + pid() + " did not exit in " + timeout);
    }
    return process.exitValue();
  }

  String output() {
    synchronized (lines) {
      return String.join("\n", lines);
    }
  }

  /** Resident set size, from /proc. */
  long rssBytes() {
    return rssBytes(pid());
  }

  static long rssBytes(long pid) {
    try {
      for (String l : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
        if (l.startsWith("VmRSS:")) {
          return Long.parseLong(l.replaceAll("[^0-9]", "")) * 1024;
        }
      }
    } catch (IOException | RuntimeException e) {
      // Gone, or not Linux.
    }
    return -1;
  }

  /** Open file descriptors, from /proc: each connection is one. */
  long openFds() {
    try (Stream<Path> s = Files.list(Path.of("/proc/" + pid() + "/fd"))) {
      return s.count();
    } catch (IOException e) {
      return -1;
    }
  }

  /** Heap in use right after a full GC (jcmd GC.run, then the service's own JVM meter). */
  long heapAfterGc() throws IOException, InterruptedException {
    Process jcmd = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
        Long.toString(pid()), "GC.run").redirectErrorStream(true).start();
    jcmd.getInputStream().readAllBytes();
    jcmd.waitFor(60, TimeUnit.SECONDS);
    double heap = 0;
    for (String line : metrics().split("\n")) {
      if (line.startsWith("jvm_memory_used_bytes{") && line.contains("area=\"heap\"")) {
        heap += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
      }
    }
    return (long) heap;
  }

  /** The sum of every sample of a metric on the admin port. */
  double metric(String name) throws IOException {
    double total = 0;
    for (String line : metrics().split("\n")) {
      if (line.startsWith(name + "{") || line.startsWith(name + " ")) {
        total += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
      }
    }
    return total;
  }

  String metrics() throws IOException {
    return get("/metrics");
  }

  String get(String path) throws IOException {
    HttpURLConnection c = (HttpURLConnection) URI.create("http://127.0.0.1:" + adminPort + path).toURL().openConnection();
    c.setConnectTimeout(10_000);
    c.setReadTimeout(30_000);
    try (InputStream in = c.getInputStream()) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } finally {
      c.disconnect();
    }
  }

  @Override
  public void close() {
    if (process.isAlive()) {
      process.destroyForcibly();
      try {
        process.waitFor(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
