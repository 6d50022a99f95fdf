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
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code deploy/run-processes.sh rpc-server 2}: two JVMs listen on one port; one killed with
 * SIGKILL is restarted while the other keeps the port answering; SIGTERM drains both, exit 0.
 */
class RunProcessesTest {

  private static final Pattern STARTED = Pattern.compile("rpc-server #(\\d) started \\(pid (\\d+)");

  @Test
  void aKilledProcessIsRestartedAndThePortKeepsAnswering() throws Exception {
    Path jar = Jars.of("rpc-server");
    int port = freePort();
    int admin = freePortPair();
    ProcessBuilder pb = new ProcessBuilder("bash", Jars.ROOT.resolve("deploy/run-processes.sh").toString(),
        "rpc-server", "2").redirectErrorStream(true);
    pb.environment().put("PORTSHARE_PORT", Integer.toString(port));
    pb.environment().put("PORTSHARE_ADMIN_PORT", Integer.toString(admin));
    pb.environment().put("SERVICE_JAR", jar.toString());
    Process script = pb.start();
    List<String> log = new CopyOnWriteArrayList<>();
    Thread reader = new Thread(() -> {
      try (BufferedReader in = new BufferedReader(new InputStreamReader(script.getInputStream(), StandardCharsets.UTF_8))) {
        for (String line; (line = in.readLine()) != null; ) {
          log.add(line);
        }
      } catch (IOException e) {
        // the script ended
      }
    });
    reader.start();
    AtomicBoolean clientRuns = new AtomicBoolean(true);
    try {
      await().atMost(Duration.ofSeconds(120)).until(() -> new AdminPort(admin).ready() && new AdminPort(admin + 1).ready());
      assertThat(listeners(port)).as("two SO_REUSEPORT listeners on port " + port).isEqualTo(2);

      AtomicLong ok = new AtomicLong();
      AtomicLong refused = new AtomicLong();
      List<String> otherErrors = new CopyOnWriteArrayList<>();
      Thread client = new Thread(() -> {
        byte[] frame = RpcWire.frame("run-processes".getBytes(StandardCharsets.UTF_8));
        while (clientRuns.get()) {
          // One RPC transaction per connection: a frame out, the same frame back.
          try (RpcWire wire = new RpcWire(port)) {
            wire.transact(frame);
            ok.incrementAndGet();
          } catch (ConnectException e) {
            refused.incrementAndGet();
          } catch (IOException e) {
            // A connection queued on the killed listener is reset with it; the port still answers.
            otherErrors.add(e.toString());
          }
        }
      });
      client.start();
      await().atMost(Duration.ofSeconds(30)).until(() -> ok.get() > 0);

      long victim = pidOf(log, 1, 1);
      new ProcessBuilder("kill", "-KILL", Long.toString(victim)).start().waitFor();
      long okAtKill = ok.get();
      await().atMost(Duration.ofSeconds(120)).until(() -> startsOf(log, 1) == 2);
      long okWhileDead = ok.get() - okAtKill;
      await().atMost(Duration.ofSeconds(120)).until(() -> new AdminPort(admin + 1).ready());
      long okAtRestart = ok.get();
      await().atMost(Duration.ofSeconds(30)).until(() -> ok.get() > okAtRestart);
      clientRuns.set(false);
      client.join();

      assertThat(log).anyMatch(l -> l.contains("rpc-server #1 (pid " + victim + ") died with code 137"));
      assertThat(pidOf(log, 1, 2)).isNotEqualTo(victim);
      assertThat(listeners(port)).isEqualTo(2);
      assertThat(okWhileDead).as("transactions answered while process #1 was dead").isPositive();
      assertThat(refused.get()).as("connections refused").isZero();
      assertThat(otherErrors.size()).as("errors %s among %d transactions", otherErrors, ok.get())
          .isLessThan(10);

      new ProcessBuilder("kill", "-TERM", Long.toString(script.pid())).start().waitFor();
      assertThat(script.waitFor(60, TimeUnit.SECONDS)).isTrue();
      reader.join();
      assertThat(script.exitValue()).as("exit code; log:\n%s", String.join("\n", log)).isZero();
      assertThat(log).anyMatch(l -> l.contains("all stopped"));
    } finally {
      clientRuns.set(false);
      if (script.isAlive()) {
        script.descendants().forEach(ProcessHandle::destroyForcibly);
        script.destroyForcibly();
      }
    }
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
