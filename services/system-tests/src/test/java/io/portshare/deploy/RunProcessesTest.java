package io.portshare.deploy;

import io.portshare.kit.FreePorts;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.portshare.kit.AdminPort;
import io.portshare.kit.RpcWire;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ConnectException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code deploy/run-processes.sh rpc-server 2}: two JVMs serve one port on sockets the supervisor
 * holds; one killed with SIGKILL is restarted on its socket while nothing new is refused; SIGHUP
 * replaces both without a failed transaction; SIGTERM drains both, exit 0, and nothing is left on the
 * port, whatever phase of a SIGHUP round it comes in. A service jar given by its path runs the same
 * way.
 */
class RunProcessesTest {

  private static final Pattern STARTED = Pattern.compile("rpc #(\\d) started \\(pid (\\d+)");

  /**
   * {@code deploy/run-processes.sh rpc-server 2} on a free port (admin ports A and A+1), its output
   * collected in {@link #log}; closing kills whatever of it is left.
   */
  private static final class Supervised implements AutoCloseable {
    final int port;
    final int admin;
    final int processes;
    final List<String> log = new CopyOnWriteArrayList<>();
    final Process script;

    Supervised() throws IOException, InterruptedException {
      this(Map.of());
    }

    /** With {@code env} added to the supervisor's environment, which its children inherit. */
    Supervised(Map<String, String> env) throws IOException, InterruptedException {
      this(env, Map.of("SERVICE_JAR", Jars.of("rpc-server").toString()), "rpc-server", 2);
    }

    /** {@code deploy/run-processes.sh SERVICE N}, SERVICE as a user names it: a module or a jar's path. */
    Supervised(String service, int processes) throws IOException {
      this(Map.of(), Map.of(), service, processes);
    }

    private Supervised(Map<String, String> env, Map<String, String> jar, String service, int processes)
        throws IOException {
      this.processes = processes;
      port = freePort();
      admin = freePortPair();
      // SIGHUP at its default whatever runs the tests (nohup would leave it ignored across exec).
      ProcessBuilder pb = new ProcessBuilder("env", "--default-signal=HUP", "bash",
          Jars.ROOT.resolve("deploy/run-processes.sh").toString(),
          service, Integer.toString(processes)).redirectErrorStream(true);
      pb.environment().put("PORTSHARE_PORT", Integer.toString(port));
      pb.environment().put("PORTSHARE_ADMIN_PORT", Integer.toString(admin));
      // A test never builds: the reactor has packaged the services it names.
      pb.environment().put("BUILD", "0");
      pb.environment().putAll(jar);
      pb.environment().putAll(env);
      script = pb.start();
      Thread reader = new Thread(() -> {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(script.getInputStream(), StandardCharsets.UTF_8))) {
          for (String line; (line = in.readLine()) != null; ) {
            log.add(line);
          }
        } catch (IOException e) {
          // the script ended
        }
      });
      reader.setDaemon(true);
      reader.start();
    }

    /** Every process reports ready. */
    Supervised awaitReady() {
      await().atMost(Duration.ofSeconds(120)).until(() -> {
        if (!script.isAlive()) {
          throw new AssertionError("the supervisor exited before its processes were ready; log:\n"
              + String.join("\n", log));
        }
        for (int i = 0; i < processes; i++) {
          if (!ready(admin + i)) {
            return false;
          }
        }
        return true;
      });
      return this;
    }

    /** Waits for the first line from {@code from} on that matches, and returns its index. */
    int awaitLine(int from, Pattern pattern, Duration timeout) {
      int[] found = {-1};
      await().atMost(timeout).until(() -> {
        for (int i = from; i < log.size(); i++) {
          if (pattern.matcher(log.get(i)).find()) {
            found[0] = i;
            return true;
          }
        }
        if (!script.isAlive()) {
          throw new AssertionError("the supervisor exited before " + pattern + "; log:\n" + String.join("\n", log));
        }
        return false;
      });
      return found[0];
    }

    void signal(String name) throws IOException, InterruptedException {
      signal(name, script.pid());
    }

    static void signal(String name, long pid) throws IOException, InterruptedException {
      new ProcessBuilder("kill", "-" + name, Long.toString(pid)).start().waitFor();
    }

    /** SIGTERM drains both processes: the supervisor exits 0 and nothing listens on the port any more. */
    void terminateCleanly() throws IOException, InterruptedException {
      signal("TERM");
      assertThat(script.waitFor(60, TimeUnit.SECONDS)).isTrue();
      assertThat(script.exitValue()).as("exit code; log:\n%s", String.join("\n", log)).isZero();
      assertThat(listeners(port)).as("listeners left on the port").isZero();
    }

    @Override
    public void close() {
      script.descendants().forEach(ProcessHandle::destroyForcibly);
      script.destroyForcibly();
    }
  }

  /** One-transaction connections in a loop until stopped, counting answers, refusals and other errors. */
  private static final class OneShotClient extends Thread {
    final AtomicBoolean runs = new AtomicBoolean(true);
    final AtomicLong ok = new AtomicLong();
    final AtomicLong refused = new AtomicLong();
    final List<String> otherErrors = new CopyOnWriteArrayList<>();
    private final int port;

    OneShotClient(int port) {
      this.port = port;
      setDaemon(true);
    }

    @Override
    public void run() {
      byte[] payload = "run-processes".getBytes(StandardCharsets.UTF_8);
      while (runs.get()) {
        try {
          if (echo(port, payload)) {
            ok.incrementAndGet();
          } else {
            otherErrors.add("wrong echo");
          }
        } catch (ConnectException e) {
          refused.incrementAndGet();
        } catch (IOException e) {
          otherErrors.add(e.toString());
        }
      }
    }

    void finish() throws InterruptedException {
      runs.set(false);
      join();
    }
  }

  @Test
  void sighupReplacesBothProcessesWithoutAFailedTransactionAndSigtermLeavesNothingBehind() throws Exception {
    try (Supervised run = new Supervised().awaitReady()) {
      List<String> log = run.log;
      OneShotClient client = new OneShotClient(run.port);
      client.start();
      await().atMost(Duration.ofSeconds(30)).until(() -> client.ok.get() > 0);

      run.signal("HUP");
      await().atMost(Duration.ofSeconds(240)).until(() -> log.stream().anyMatch(l -> l.contains("every child replaced")));
      long okAfterRoll = client.ok.get();
      await().atMost(Duration.ofSeconds(30)).until(() -> client.ok.get() > okAfterRoll);
      client.finish();

      assertThat(run.script.isAlive()).as("the supervisor outlives SIGHUP").isTrue();
      assertThat(pidOf(log, 0, 2)).isNotEqualTo(pidOf(log, 0, 1));
      assertThat(pidOf(log, 1, 2)).isNotEqualTo(pidOf(log, 1, 1));
      assertThat(log).anyMatch(l -> l.contains("rpc #0 (pid " + pidOf(log, 0, 1) + ") drained and exited with code 0"));
      assertThat(listeners(run.port)).isEqualTo(2);
      assertThat(client.refused.get()).as("connections refused").isZero();
      assertThat(client.otherErrors).as("errors among %d transactions", client.ok.get()).isEmpty();

      run.terminateCleanly();
    }
  }

  @Test
  void aSupervisorKilledWithSigkillLeavesNoProcessBehindOnThePort() throws Exception {
    try (Supervised run = new Supervised().awaitReady()) {
      List<ProcessHandle> children = run.script.children().collect(Collectors.toList());
      assertThat(children).hasSize(2);

      run.script.destroyForcibly();

      // Each child drains and exits once its supervisor is gone: no orphan keeps serving the port.
      // (Their output went through the supervisor, so what they say now is lost.)
      await().atMost(Duration.ofSeconds(60)).until(() -> children.stream().noneMatch(ProcessHandle::isAlive));
      assertThat(listeners(run.port)).as("listeners left on the port").isZero();
    }
  }

  @Test
  void aKilledProcessIsRestartedAndThePortKeepsAnswering() throws Exception {
    try (Supervised run = new Supervised().awaitReady()) {
      List<String> log = run.log;
      assertThat(listeners(run.port)).as("two SO_REUSEPORT listeners on port " + run.port).isEqualTo(2);
      OneShotClient client = new OneShotClient(run.port);
      try {
        client.start();
        await().atMost(Duration.ofSeconds(30)).until(() -> client.ok.get() > 0);

        long victim = pidOf(log, 1, 1);
        Supervised.signal("KILL", victim);
        ProcessHandle.of(victim).ifPresent(h -> h.onExit().join());
        // The client waits out a connection queued on the dead process's socket; probes that give up
        // after 500 ms show the survivor answering meanwhile.
        long okWhileDead = probe(run.port, 10);
        await().atMost(Duration.ofSeconds(120)).until(() -> startsOf(log, 1) == 2);
        await().atMost(Duration.ofSeconds(120)).until(() -> ready(run.admin + 1));
        long okAtRestart = client.ok.get();
        await().atMost(Duration.ofSeconds(30)).until(() -> client.ok.get() > okAtRestart);
        client.finish();

        assertThat(log).anyMatch(l -> l.contains("rpc #1 (pid " + victim + ") died with code 137"));
        assertThat(pidOf(log, 1, 2)).isNotEqualTo(victim);
        assertThat(listeners(run.port)).isEqualTo(2);
        assertThat(okWhileDead).as("transactions answered while process #1 was dead").isPositive();
        assertThat(client.refused.get()).as("connections refused").isZero();
        // Only a connection the killed process had accepted can break: the client has one at a time.
        assertThat(client.otherErrors.size()).as("errors %s among %d transactions", client.otherErrors,
            client.ok.get()).isLessThanOrEqualTo(1);

        run.terminateCleanly();
        assertThat(log).anyMatch(l -> l.contains("all stopped"));
      } finally {
        client.runs.set(false);
      }
    }
  }

  /**
   * Any service jar, given by its path: here rpc-server's under a name of its own, outside the
   * repository, so that neither a module's name nor SERVICE_JAR picks it. It serves the port under
   * its supervisor and drains on SIGTERM like the shipped names.
   */
  @Test
  void aServiceJarGivenByItsPathRunsUnderItsSupervisor(@TempDir Path elsewhere) throws Exception {
    Path jar = Files.copy(Jars.of("rpc-server"), elsewhere.resolve("my-echo.jar"));
    try (Supervised run = new Supervised(jar.toString(), 1).awaitReady()) {
      assertThat(echo(run.port, "by path".getBytes(StandardCharsets.UTF_8))).isTrue();
      assertThat(run.log).anyMatch(l -> STARTED.matcher(l).find());
      assertThat(listeners(run.port)).isEqualTo(1);
      run.terminateCleanly();
    }
  }

  /** The phases of a SIGHUP round for slot 0, each named by the line that shows it has begun. */
  enum Phase {
    /** The replacement's JVM is booting: it has not asked for its socket yet. */
    STARTING("rpc #0 started \\(pid (\\d+)"),
    /** The replacement listens on the slot's socket and drives its warm-up. */
    WARMING_UP("\\[rpc#0\\] .*warm-up: "),
    /** The replacement serves; the one it replaced drains, held open by a connection in mid-frame. */
    OLD_DRAINING("rpc #0: pid \\d+ serves the socket; pid (\\d+) drains");

    final Pattern begun;

    Phase(String begun) {
      this.begun = Pattern.compile(begun);
    }
  }

  /**
   * SIGTERM at one phase of a SIGHUP round: the replacement still starting or warming up stops
   * without a drain (exit 0), the serving processes drain, the supervisor exits 0. A one-shot client
   * runs through the round up to the SIGTERM, and connections held in mid-frame on both slots through
   * all of it are answered once they send the rest.
   */
  @ParameterizedTest
  @EnumSource(Phase.class)
  void sigtermAtAnyPhaseOfAReplacementStopsEveryProcessCleanly(Phase phase) throws Exception {
    // A short warm-up leaves the warming phase long enough to hit by its log line; no idle timeout
    // cuts the held connections while a replacement boots on a busy machine.
    try (Supervised run = new Supervised(Map.of("PORTSHARE_WARMUP", "4s", "PORTSHARE_IDLE_TIMEOUT", "0",
        "PORTSHARE_DRAIN_TIMEOUT", "30s"))
        .awaitReady()) {
      List<String> log = run.log;
      List<RpcWire> held = holdOnBothSlots(run);
      OneShotClient client = new OneShotClient(run.port);
      try {
        client.start();
        await().atMost(Duration.ofSeconds(30)).until(() -> client.ok.get() > 0);

        int hup = log.size();
        run.signal("HUP");
        int begun = run.awaitLine(hup, phase.begun, Duration.ofSeconds(240));
        // The one-shot client stops before the stop begins: once SIGTERM is in, the serving processes
        // drain and close their listeners, each the last to hold its socket, and a connection made as
        // a listener closes is reset, as with any listener's close (see the runtime's Listeners). On a
        // quiet machine that came within the time this test takes to read the supervisor's next line.
        client.finish();
        long refusedBeforeTerm = client.refused.get();
        run.signal("TERM");

        int stopping = run.awaitLine(begun, Pattern.compile("supervisor: stopping \\d+ children: "), Duration.ofSeconds(60));
        String line = log.get(begun);
        switch (phase) {
          case STARTING:
            Matcher started = phase.begun.matcher(line);
            assertThat(started.find()).isTrue();
            assertThat(log.get(stopping)).contains("#0 pid " + started.group(1) + " starting (no sockets yet)");
            break;
          case WARMING_UP:
            run.awaitLine(begun, Pattern.compile("\\[rpc#0\\] .*stopped while warming up"), Duration.ofSeconds(60));
            break;
          default:
            Matcher drains = phase.begun.matcher(line);
            assertThat(drains.find()).isTrue();
            assertThat(log.get(stopping)).contains("#0 pid " + drains.group(1) + " draining");
        }
        run.awaitLine(stopping, Pattern.compile("supervisor: listening sockets left to the children"),
            Duration.ofSeconds(120));
        for (int i = 0; i < held.size(); i++) {
          held.get(i).write(HELD_REST);
          assertThat(held.get(i).readFrame()).as("held connection %d's answer", i).isEqualTo(HELD_PAYLOAD);
        }

        assertThat(run.script.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(run.script.exitValue()).as("supervisor's exit code; log:\n%s", String.join("\n", log)).isZero();
        assertThat(log.subList(stopping, log.size())).filteredOn(l -> l.contains(") exited with code "))
            .hasSize(3).allMatch(l -> l.endsWith("exited with code 0"));
        assertThat(log).noneMatch(l -> l.contains(" died with code "));
        assertThat(listeners(run.port)).as("listeners left on the port").isZero();
        // What must not happen during the round is a connection refused, or one accepted or queued
        // and then lost (a reset, an end without an answer).
        assertThat(refusedBeforeTerm).as("connections refused during the round").isZero();
        assertThat(client.otherErrors).as("errors among %d transactions", client.ok.get()).isEmpty();
      } finally {
        client.runs.set(false);
        held.forEach(RpcWire::close);
      }
    }
  }

  private static final byte[] HELD_PAYLOAD = "held through the stop".getBytes(StandardCharsets.UTF_8);
  private static final byte[] HELD_REST = Arrays.copyOfRange(RpcWire.frame(HELD_PAYLOAD), 8, 4 + HELD_PAYLOAD.length);

  /**
   * Connections that have sent half a frame, at least one on each process (the kernel's hash picks
   * the socket): a drain waits for the rest of a frame, so each keeps its process draining until
   * the test sends it.
   */
  private static List<RpcWire> holdOnBothSlots(Supervised run) throws IOException {
    byte[] half = Arrays.copyOfRange(RpcWire.frame(HELD_PAYLOAD), 0, 8);
    List<RpcWire> held = new ArrayList<>();
    for (int i = 0; i < 64 && (openOn(run.admin) == 0 || openOn(run.admin + 1) == 0); i++) {
      RpcWire wire = new RpcWire(run.port);
      wire.write(half);
      held.add(wire);
    }
    assertThat(openOn(run.admin)).as("held connections on process #0").isPositive();
    assertThat(openOn(run.admin + 1)).as("held connections on process #1").isPositive();
    return held;
  }

  private static double openOn(int adminPort) throws IOException {
    return new AdminPort(adminPort).metrics().sum("portshare_connections_open");
  }

  /** Transactions answered within 500 ms among {@code attempts} new connections. */
  private static long probe(int port, int attempts) {
    long answered = 0;
    byte[] payload = "probe".getBytes(StandardCharsets.UTF_8);
    for (int i = 0; i < attempts; i++) {
      try {
        answered += echo(port, payload, 500) ? 1 : 0;
      } catch (IOException e) {
        // Queued on the dead process's socket: it waits there for the restarted one.
      }
    }
    return answered;
  }

  private static boolean echo(int port, byte[] payload) throws IOException {
    // A connection queued on a socket whose process is restarting waits for the new one.
    return echo(port, payload, 60_000);
  }

  /** One RPC transaction on a new connection: a length-prefixed frame out, the same frame back. */
  private static boolean echo(int port, byte[] payload, int timeoutMillis) throws IOException {
    byte[] frame = RpcWire.frame(payload);
    try (RpcWire wire = new RpcWire(port)) {
      wire.socket().setSoTimeout(timeoutMillis);
      wire.transact(frame);
      return true;
    }
  }

  private static boolean ready(int adminPort) {
    return new AdminPort(adminPort).ready();
  }

  private static int listeners(int port) throws IOException, InterruptedException {
    Process ss = new ProcessBuilder("ss", "-Hltn", "sport = :" + port).start();
    String out = new String(ss.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    ss.waitFor();
    return (int) out.lines().filter(l -> !l.isBlank()).count();
  }

  private static long startsOf(List<String> log, int index) {
    return log.stream().map(STARTED::matcher).filter(Matcher::find)
        .filter(m -> Integer.parseInt(m.group(1)) == index).count();
  }

  /** The pid of the n-th start of process {@code index}, from the script's log. */
  private static long pidOf(List<String> log, int index, int nth) {
    return log.stream().map(STARTED::matcher).filter(Matcher::find)
        .filter(m -> Integer.parseInt(m.group(1)) == index).skip(nth - 1L)
        .map(m -> Long.parseLong(m.group(2))).findFirst()
        .orElseThrow(() -> new AssertionError("no start " + nth + " of #" + index + " in " + log));
  }

  /**
   * Below the ephemeral range (FreePorts): the build runs other modules' load beside these tests, and
   * a port drawn from that range can be some client's source port by the time it is bound.
   */
  private static int freePort() {
    return FreePorts.block(1);
  }

  /** A free port whose successor is free too (process i takes admin port base + i). */
  private static int freePortPair() {
    return FreePorts.block(2);
  }
}
