package io.portshare.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.portshare.kit.AdminPort;
import io.portshare.kit.RpcWire;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ConnectException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * {@code deploy/run-processes.sh rpc-server 2}: two JVMs serve one port on sockets the supervisor
 * holds; one killed with SIGKILL is restarted on its socket while nothing new is refused; SIGHUP
 * replaces both without a failed transaction; SIGTERM drains both, exit 0, and nothing is left on the port.
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
    final List<String> log = new CopyOnWriteArrayList<>();
    final Process script;

    Supervised() throws IOException, InterruptedException {
      port = freePort();
      admin = freePortPair();
      // SIGHUP at its default whatever runs the tests (nohup would leave it ignored across exec).
      ProcessBuilder pb = new ProcessBuilder("env", "--default-signal=HUP", "bash",
          Jars.ROOT.resolve("deploy/run-processes.sh").toString(),
          "rpc-server", "2").redirectErrorStream(true);
      pb.environment().put("PORTSHARE_PORT", Integer.toString(port));
      pb.environment().put("PORTSHARE_ADMIN_PORT", Integer.toString(admin));
      pb.environment().put("SERVICE_JAR", Jars.of("rpc-server").toString());
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

    /** Both processes report ready. */
    Supervised awaitReady() {
      await().atMost(Duration.ofSeconds(120)).until(() -> ready(admin) && ready(admin + 1));
      return this;
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

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  /** A free port whose successor is free too (process i takes admin port base + i). */
  private static int freePortPair() throws IOException {
    for (int attempt = 0; attempt < 50; attempt++) {
      int p = freePort();
      if (p < 65535) {
        try (ServerSocket next = new ServerSocket(p + 1)) {
          return p;
        } catch (IOException taken) {
          // try another
        }
      }
    }
    throw new IOException("no two consecutive free ports");
  }
}
