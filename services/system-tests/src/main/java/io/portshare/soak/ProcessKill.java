package io.portshare.soak;

import io.portshare.kit.AdminPort;
import io.portshare.kit.ServiceProcess;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * SIGKILL one of N supervised reuseport processes (deploy/run-processes.sh) under RPC load on
 * long-lived connections: the others keep serving, only connections the killed process owned
 * break (one transaction lost on each, and at most one more per such client if its reconnect met
 * the dying listener), and the supervisor starts it again on the socket it kept. Beside them
 * one-transaction connections keep coming: none that began after the process died may be refused
 * or reset (those hashed to its socket wait in its queue for the new process).
 */
final class ProcessKill {

  private static final int CLIENTS = 12;

  private ProcessKill() {}

  static ScenarioResult run(SoakConfig cfg, int processes, Duration loadTime) throws Exception {
    int port = cfg.port(2, 0);
    int admin = port + 1;
    ProcessBuilder pb = new ProcessBuilder(cfg.deployDir().resolve("run-processes.sh").toString(), "rpc",
        Integer.toString(processes), "--host", "127.0.0.1", "--warmup", SoakConfig.WARMUP)
        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
    pb.environment().keySet().removeIf(k -> k.startsWith("PORTSHARE_"));
    pb.environment().put("PORTSHARE_PORT", Integer.toString(port));
    pb.environment().put("PORTSHARE_ADMIN_PORT", Integer.toString(admin));
    pb.environment().put("SERVICE_JAR", cfg.rpcJar().toString());
    pb.environment().put("JAVA", ServiceProcess.javaBin());
    Process supervisor = pb.start();
    try {
      for (int i = 0; i < processes; i++) {
        new AdminPort(admin + i).awaitReady(Duration.ofSeconds(90));
      }
      long victimPid = pidOnAdminPort(supervisor, admin);
      try (RpcLoad load = RpcLoad.persistent(port, CLIENTS); RpcLoad fresh = RpcLoad.oneShot(port, 4, 0)) {
        Thread.sleep(loadTime.toMillis() / 2);
        double victimOpen = new AdminPort(admin).metrics().sum("portshare_connections_open");
        // The long-lived connections only: the one-shot clients' connections come and go, and one the
        // victim held at the snapshot has usually finished, unbroken, before the kill.
        Map<Long, Long> owners = serverPidByClientPort(port);
        owners.keySet().retainAll(load.openPorts.stream().map(Long::valueOf).toList());
        long snapshotAt = System.nanoTime();
        long before = load.transactions.get();
        long killStarted = System.nanoTime();
        Optional<ProcessHandle> victim = ProcessHandle.of(victimPid);
        victim.ifPresent(ProcessHandle::destroyForcibly);
        victim.ifPresent(v -> v.onExit().join());
        long killedAt = System.nanoTime();
        Thread.sleep(loadTime.toMillis() / 2);
        long servedAfterKill = load.transactions.get() - before;
        boolean restarted = new AdminPort(admin).awaitReady(Duration.ofSeconds(90)) && pidOnAdminPort(supervisor, admin) != victimPid;
        double restartSecs = (System.nanoTime() - killedAt) / 1e9;
        load.close();
        fresh.close();
        long freshFailed = fresh.failedStarts.stream().filter(t -> t > killedAt).count();
        long broken = load.brokenConnections.get();
        long failures = load.failures();
        // A connection broke wrongly if it was open before the kill and a surviving process owned it.
        // (A reconnect that landed in the dying listener's queue belonged to the killed process too.)
        long survivorsBroken = load.broken.stream().filter(b -> b[1] < snapshotAt)
            .filter(b -> owners.containsKey(b[0]) && owners.get(b[0]) != victimPid).count();
        long ownedByVictim = owners.values().stream().filter(pid -> pid == victimPid).count();
        // What the killed process held bounds the loss: each connection it owned carried at most one
        // transaction (so each broke once), and a reconnect can only be lost if it landed in the dying
        // process's accept queue, at most one per client that had just lost its connection.
        long heldBroken = load.broken.stream().filter(b -> b[1] < killStarted).count();
        long queuedBroken = broken - heldBroken;
        boolean bounded = failures == broken && heldBroken == ownedByVictim && queuedBroken <= ownedByVictim;
        boolean ok = restarted && servedAfterKill > 0 && survivorsBroken == 0 && bounded
            && freshFailed == 0 && fresh.transactions.get() > 0;
        String detail = String.format("%d processes, killed pid %d owning %d of %d connections (/metrics said %d): "
            + "%d broke (%d owned by a survivor, %d reconnects lost in its queue), %d transactions lost (at most %d "
            + "allowed), %d answered after the kill, restarted by the supervisor in %.1f s; new connections: %d "
            + "answered, %d failed after the kill%s", processes, victimPid, ownedByVictim, owners.size(),
            (long) victimOpen, broken, survivorsBroken, queuedBroken, failures, 2 * ownedByVictim, servedAfterKill,
            restartSecs, fresh.transactions.get(), freshFailed, freshFailed == 0 ? "" : " (" + fresh.firstErrors() + ")");
        return new ScenarioResult("sigkill-one-process", "SIGKILL 1 of N rpc processes under load",
            load.connections.get(), failures, "-", detail, ok);
      }
    } finally {
      supervisor.toHandle().destroy();
      if (!supervisor.waitFor(30, TimeUnit.SECONDS)) {
        supervisor.descendants().forEach(ProcessHandle::destroyForcibly);
        supervisor.destroyForcibly();
      }
    }
  }

  /** Which server process owns each client connection to the port, by the client's port (from ss -tnp). */
  static Map<Long, Long> serverPidByClientPort(int port) throws IOException, InterruptedException {
    Process ss = new ProcessBuilder("ss", "-tnpH", "state", "established", "( sport = :" + port + " )")
        .redirectErrorStream(true).start();
    String out = new String(ss.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    ss.waitFor();
    Map<Long, Long> owners = new HashMap<>();
    Matcher m = Pattern
        .compile("\\S+:" + port + "\\s+\\S+:(\\d+)\\s+users:\\(\\(\"[^\"]*\",pid=(\\d+)").matcher(out);
    while (m.find()) {
      owners.put(Long.parseLong(m.group(1)), Long.parseLong(m.group(2)));
    }
    return owners;
  }

  /** The supervised JVM whose command line names this admin port. */
  static long pidOnAdminPort(Process supervisor, int adminPort) {
    for (int attempt = 0; attempt < 100; attempt++) {
      Optional<ProcessHandle> p = supervisor.descendants().filter(h -> {
        List<String> args = List.of(h.info().arguments().orElse(new String[0]));
        int i = args.indexOf("--admin-port");
        return i >= 0 && i + 1 < args.size() && args.get(i + 1).equals(Integer.toString(adminPort));
      }).findFirst();
      if (p.isPresent()) {
        return p.get().pid();
      }
      sleep(100);
    }
    throw new IllegalStateException("no supervised process with admin port " + adminPort);
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
