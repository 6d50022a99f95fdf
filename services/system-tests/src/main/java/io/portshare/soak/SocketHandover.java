package io.portshare.soak;

import io.portshare.kit.ServiceProcess;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Rolling replacement through the supervisor that owns the listening sockets ({@code --supervise N}):
 * SIGHUP after SIGHUP under one-transaction-per-connection load (each closed with SO_LINGER 0), until
 * both processes x rounds replacements and the transaction target are reached. No listening socket
 * is closed on the way, so the promise is 0 failed whatever net.ipv4.tcp_migrate_req says; the
 * scenario reads the setting and names it. With {@code activate} the supervisor itself is started by
 * systemd-socket-activate and serves the one socket it inherits (LISTEN_FDS), as under a .socket unit.
 */
final class SocketHandover {

  private static final int CLIENTS = 16;
  private static final Duration ROUND_TIMEOUT = Duration.ofMinutes(5);

  private SocketHandover() {}

  static ScenarioResult run(SoakConfig cfg, boolean activate) throws Exception {
    int port = cfg.port(activate ? 10 : 9, 0);
    String migrate = RollingRestart.readMigrate();
    Supervised sup = Supervised.start(cfg, port, activate);
    int replacements = 0;
    int rounds = 0;
    try {
      if (activate) {
        // systemd-socket-activate execs the supervisor on the first connection; until it has bound
        // the socket itself, a connect is refused.
        firstConnect(port, sup);
      }
      sup.awaitLines("ready", cfg.processes(), ROUND_TIMEOUT);
      long t0 = System.nanoTime();
      RpcLoad load = RpcLoad.oneShot(port, CLIENTS, 0);
      try {
        Thread.sleep(500);
        while (rounds < cfg.rollingRounds() || load.transactions.get() < cfg.shortConnections()) {
          sup.hangUp();
          rounds++;
          sup.awaitLines("every child replaced", rounds, ROUND_TIMEOUT);
          replacements += cfg.processes();
        }
        Thread.sleep(500);
      } finally {
        load.close();
      }
      double seconds = (System.nanoTime() - t0) / 1e9;
      int exit = sup.terminate();
      long failures = load.failures();
      boolean ok = failures == 0 && exit == 0 && load.transactions.get() >= cfg.shortConnections();
      String what = "SIGHUP replacement x" + replacements + (activate ? " under systemd-socket-activate" : "")
          + ", sockets held, tcp_migrate_req=" + migrate;
      String detail = String.format("%d processes, %d rounds in %.0f s, %d transactions (%.0f/s), %d failed "
          + "connects, supervisor exit %d%s", cfg.processes(), rounds, seconds, load.transactions.get(),
          load.transactions.get() / seconds, load.failedConnects.get(), exit,
          failures == 0 ? "" : "; " + load.firstErrors());
      return new ScenarioResult(activate ? "handover-activate" : "handover", what,
          load.connections.get() + load.failedConnects.get(), failures, "-", detail, ok);
    } catch (RuntimeException | IOException e) {
      throw new IllegalStateException(e.getMessage() + "; supervisor output:\n" + sup.tail(), e);
    } finally {
      sup.kill();
    }
  }

  private static void firstConnect(int port, Supervised sup) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (true) {
      try (Socket first = new Socket()) {
        first.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 10_000);
        return;
      } catch (ConnectException refused) {
        if (System.nanoTime() > deadline || !sup.process.isAlive()) {
          throw refused;
        }
        Thread.sleep(50);
      }
    }
  }

  /** The supervisor as its own process, its output lines kept. */
  private static final class Supervised {
    private final Process process;
    private final List<String> lines = new ArrayList<>();

    private Supervised(Process process) {
      this.process = process;
      Thread t = new Thread(() -> {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
            StandardCharsets.UTF_8))) {
          for (String line; (line = in.readLine()) != null; ) {
            synchronized (lines) {
              lines.add(line);
              lines.notifyAll();
            }
          }
        } catch (IOException e) {
          // Gone: its exit code says the rest.
        }
      }, "supervisor-output");
      t.setDaemon(true);
      t.start();
    }

    static Supervised start(SoakConfig cfg, int port, boolean activate) throws IOException {
      List<String> cmd = new ArrayList<>();
      if (activate) {
        cmd.addAll(List.of("systemd-socket-activate", "-l", "127.0.0.1:" + port));
      }
      // Whatever runs this (nohup, a CI shell) may ignore SIGHUP, and an ignored signal stays ignored
      // across exec: the supervisor starts with it at its default, so that it can take it.
      cmd.addAll(List.of("env", "--default-signal=HUP"));
      cmd.addAll(List.of(ServiceProcess.javaBin(), "-Xmx256m", "-XX:+ExitOnOutOfMemoryError", "-jar",
          cfg.rpcJar().toString(), "--supervise", Integer.toString(cfg.processes()), "--port",
          Integer.toString(port), "--admin-port", "0", "--host", "127.0.0.1", "--drain-timeout", "10s",
          "--warmup", SoakConfig.WARMUP));
      ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
      pb.environment().keySet().removeIf(k -> k.startsWith("PORTSHARE_") || k.startsWith("LISTEN_"));
      return new Supervised(pb.start());
    }

    /** Waits until {@code n} of the supervisor's own lines (not its children's) contain {@code text}. */
    void awaitLines(String text, int n, Duration timeout) throws InterruptedException {
      long deadline = System.nanoTime() + timeout.toNanos();
      synchronized (lines) {
        while (lines.stream().filter(l -> !l.startsWith("[") && l.contains(text)).count() < n) {
          long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
          if (left <= 0 || !process.isAlive()) {
            throw new IllegalStateException("supervisor " + (process.isAlive() ? "did not log \"" + text + "\" " + n
                + " times in " + timeout : "exited with code " + process.exitValue()));
          }
          lines.wait(Math.min(left, 500));
        }
      }
    }

    void hangUp() throws IOException, InterruptedException {
      new ProcessBuilder("kill", "-HUP", Long.toString(process.pid())).start().waitFor();
    }

    int terminate() throws InterruptedException {
      process.toHandle().destroy();
      if (!process.waitFor(90, TimeUnit.SECONDS)) {
        throw new IllegalStateException("supervisor did not stop in 90 s");
      }
      return process.exitValue();
    }

    String tail() {
      synchronized (lines) {
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
      }
    }

    void kill() {
      if (process.isAlive()) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
      }
    }
  }
}
