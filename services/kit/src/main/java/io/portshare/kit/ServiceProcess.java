package io.portshare.kit;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A service launched as a real process, as an operator would: {@code java -cp ... Launcher flags}
 * or {@code java -jar X.jar flags}. Reads the banner for the ports, keeps the output for asserts,
 * and reads its metrics from its admin port. Its memory, descriptors and heap are read from outside,
 * by its pid: {@link ProcessReadings}.
 */
public final class ServiceProcess implements AutoCloseable {

  private static final Pattern BANNER = Pattern.compile("ready in \\d+ ms: .* port=(\\d+) admin-port=(\\d+)");

  private static final String WARMUP_ENV = "PORTSHARE_WARMUP";
  /** The channels every service a test starts runs on, where the build says: see {@link #start}. */
  public static final String CHANNEL_ENV = "PORTSHARE_CHANNEL";

  private final Process process;
  private final List<String> lines = new ArrayList<>();
  private final CountDownLatch ready = new CountDownLatch(1);
  private volatile int port = -1;
  private volatile int adminPort = -1;
  private final Thread reader;
  private final Path log;

  private ServiceProcess(Process process, Path log) {
    this.process = process;
    this.log = log;
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
    return start(command(wrapper, "io.portshare.runtime.launch.Launcher", flags), env);
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
    return launchJar(List.of(), jar, env, flags);
  }

  /**
   * {@code [prefix...] java -jar JAR flags}: the prefix may put it under a limit ({@code prlimit})
   * or in a network namespace.
   */
  public static ServiceProcess launchJar(List<String> prefix, Path jar, Map<String, String> env, String... flags)
      throws IOException {
    if (!Files.isRegularFile(jar)) {
      throw new IOException("no service jar at " + jar + " (build it: ./mvnw -B package)");
    }
    List<String> cmd = new ArrayList<>(prefix);
    cmd.addAll(List.of(javaBin(), "-Xmx256m", "-XX:+ExitOnOutOfMemoryError", "-jar", jar.toString()));
    cmd.addAll(List.of(flags));
    // A scenario judges what is lost across starts and stops, not how fast a start serves: it
    // starts cold unless PORTSHARE_WARMUP (or a --warmup flag) says otherwise.
    Map<String, String> withWarmUp = new HashMap<>(env);
    if (!withWarmUp.containsKey("PORTSHARE_WARMUP")
        && Stream.of(flags).noneMatch(f -> f.equals("--warmup") || f.startsWith("--warmup="))) {
      withWarmUp.put("PORTSHARE_WARMUP", System.getenv().getOrDefault("PORTSHARE_WARMUP", "0"));
    }
    return start(cmd, withWarmUp);
  }

  /**
   * Starts cold ({@code --warmup=0}) unless the flags or the environment say otherwise: a test
   * starts many processes and only the warm-up's own tests wait for one.
   */
  private static ServiceProcess start(List<String> cmd, Map<String, String> env) throws IOException {
    if (cmd.stream().noneMatch(f -> f.equals("--warmup") || f.startsWith("--warmup="))
        && !env.containsKey(WARMUP_ENV)) {
      cmd.add("--warmup=0");
    }
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
    pb.environment().keySet().removeIf(k -> k.startsWith("PORTSHARE_"));
    // The channels a test run asks for (the build runs the service suites once per --channel) reach
    // every process it starts, unless the test asks for its own.
    String channel = System.getenv(CHANNEL_ENV);
    if (channel != null && !channel.isEmpty() && cmd.stream().noneMatch(f -> f.equals("--channel")
        || f.startsWith("--channel="))) {
      pb.environment().put(CHANNEL_ENV, channel);
    }
    pb.environment().putAll(env);
    return new ServiceProcess(pb.start(), null);
  }

  /**
   * Exactly {@code command} in this environment, no flag added, its output also appended to
   * {@code log}: a benchmark's servers and peers (nginx, the C echo server), whose logs stay beside
   * the report and whose warm-up is their own.
   */
  public static ServiceProcess exec(List<String> command, Path log) throws IOException {
    Files.createDirectories(log.toAbsolutePath().getParent());
    return new ServiceProcess(new ProcessBuilder(command).redirectErrorStream(true).start(), log);
  }

  /** The java of this JVM, so that children run on the same one. */
  public static String javaBin() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  private void pump() {
    try (BufferedReader in = new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        Writer copy = log == null ? Writer.nullWriter() : Files.newBufferedWriter(log, StandardCharsets.UTF_8,
            StandardOpenOption.CREATE, StandardOpenOption.APPEND)) {
      String line;
      while ((line = in.readLine()) != null) {
        synchronized (lines) {
          lines.add(line);
        }
        copy.write(line + "\n");
        copy.flush();
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
        throw new IllegalStateException("service did not become ready (alive=" + process.isAlive() + "):\n"
            + output());
      }
    }
    return this;
  }

  /** Waits for exit and returns the exit code. */
  public int awaitExit(Duration timeout) throws InterruptedException {
    if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      process.destroyForcibly();
      throw new IllegalStateException("process " + pid() + " did not exit in " + timeout + ":\n" + output());
    }
    reader.join(5000);
    return process.exitValue();
  }

  /** SIGTERM, as Kubernetes and systemd stop a service. */
  public void terminate() {
    // Process.destroy() would also close our end of the output pipe and lose the drain's log.
    process.toHandle().destroy();
  }

  /** SIGKILL; the output read so far stays readable. */
  public void kill() {
    process.toHandle().destroyForcibly();
  }

  public long pid() {
    return process.pid();
  }

  /** The process, e.g. for its children and their CPU time. */
  public ProcessHandle handle() {
    return process.toHandle();
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

  /** Its admin port (known once ready). */
  public AdminPort admin() {
    return new AdminPort(adminPort);
  }

  /** The sum of every sample of a metric on its admin port. */
  public double metric(String name) throws IOException {
    return admin().metrics().sum(name);
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
