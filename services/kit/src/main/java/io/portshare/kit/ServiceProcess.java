package io.portshare.kit;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A service launched as a real process, as an operator would: {@code java -cp ... Launcher flags}
 * or {@code java -jar X.jar flags}. Reads the banner for the ports, keeps the output for asserts.
 */
public final class ServiceProcess implements AutoCloseable {

  private static final Pattern BANNER = Pattern.compile("ready in \\d+ ms: .* port=(\\d+) admin-port=(\\d+)");

  private static final String WARMUP_ENV = "PORTSHARE_WARMUP";

  private final Process process;
  private final List<String> lines = new ArrayList<>();
  private final CountDownLatch ready = new CountDownLatch(1);
  private volatile int port = -1;
  private volatile int adminPort = -1;
  private final Thread reader;

  private ServiceProcess(Process process) {
    this.process = process;
    reader = new Thread(this::pump, "service-process-output");
    reader.setDaemon(true);
    reader.start();
  }

  /** The launcher on this JVM's own class path (tests: every service on the test class path). */
  public static ServiceProcess launch(Map<String, String> env, String... flags) throws IOException {
    return launchUnder(List.of(), env, flags);
  }

  /** As {@link #launch}, run by a wrapper that execs it ({@code strace -f -o F}, {@code prlimit --nofile=N --}). */
  public static ServiceProcess launchUnder(List<String> wrapper, Map<String, String> env, String... flags)
      throws IOException {
    return start(command(wrapper, "io.portshare.runtime.Launcher", flags), env);
  }

  /**
   * Another main class on this JVM's class path, one that sets the process up (e.g. restricts what
   * the kernel allows it) and then hands its arguments to the launcher.
   */
  public static ServiceProcess launchMain(String mainClass, Map<String, String> env, String... flags)
      throws IOException {
    return start(command(List.of(), mainClass, flags), env);
  }

  private static List<String> command(List<String> wrapper, String mainClass, String... flags) {
    List<String> cmd = new ArrayList<>(wrapper);
    cmd.addAll(List.of(javaBin(), "-Xmx256m", "-cp", System.getProperty("java.class.path"), mainClass));
    cmd.addAll(List.of(flags));
    return cmd;
  }

  /** A service fat jar, exactly as {@code java -jar} runs it. */
  public static ServiceProcess launchJar(Path jar, Map<String, String> env, String... flags) throws IOException {
    List<String> cmd = new ArrayList<>(List.of(javaBin(), "-Xmx256m", "-jar", jar.toString()));
    cmd.addAll(List.of(flags));
    return start(cmd, env);
  }

  /**
   * Starts cold ({@code --warmup=0}) unless the flags or the environment say otherwise: a test
   * starts many processes and only the warm-up's own tests wait for one.
   */
  private static ServiceProcess start(List<String> cmd, Map<String, String> env) throws IOException {
    if (cmd.stream().noneMatch(f -> f.equals("--warmup") || f.startsWith("--warmup=")) && !env.containsKey(WARMUP_ENV)) {
      cmd.add("--warmup=0");
    }
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
    pb.environment().keySet().removeIf(k -> k.startsWith("PORTSHARE_"));
    pb.environment().putAll(env);
    return new ServiceProcess(pb.start());
  }

  private static String javaBin() {
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
      // The process went away; its exit code tells the rest.
    }
  }

  /** Waits for the banner; fails with the output so far if the process exits or stays silent. */
  public ServiceProcess awaitReady(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!ready.await(100, TimeUnit.MILLISECONDS)) {
      if (!process.isAlive() || System.nanoTime() > deadline) {
        throw new AssertionError("service did not become ready (alive=" + process.isAlive() + "):\n" + output());
      }
    }
    return this;
  }

  /** Waits for exit and returns the exit code. */
  public int awaitExit(Duration timeout) throws InterruptedException {
    if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("process did not exit in " + timeout + ":\n" + output());
    }
    reader.join(5000);
    return process.exitValue();
  }

  /** SIGTERM, as Kubernetes and systemd stop a service. */
  public void terminate() {
    // Process.destroy() would also close our end of the output pipe and lose the drain's log.
    process.toHandle().destroy();
  }

  public void kill() {
    process.destroyForcibly();
  }

  public long pid() {
    return process.pid();
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  public int port() {
    return port;
  }

  public int adminPort() {
    return adminPort;
  }

  public String output() {
    synchronized (lines) {
      return String.join("\n", lines);
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
