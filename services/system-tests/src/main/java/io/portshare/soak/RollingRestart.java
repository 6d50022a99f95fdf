package io.portshare.soak;

import io.portshare.kit.ProcessReadings;
import io.portshare.kit.ServiceProcess;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Rolling restart of N reuseport processes under one-transaction-per-connection load: for each,
 * start its replacement on the same port and wait until it is ready, then SIGTERM the old one and
 * wait for its drain. Closing a SO_REUSEPORT listener resets what waits in its accept queue unless
 * net.ipv4.tcp_migrate_req=1 moves it to a sibling; the drain empties the queue first, so no
 * transaction may fail either way. The scenario reads the setting and says which it ran with.
 */
final class RollingRestart {

  private static final int CLIENTS = 16;

  private RollingRestart() {}

  static ScenarioResult run(SoakConfig cfg, int processes, int rounds, String namespace) throws Exception {
    int port = cfg.port(3, 0);
    String migrate = readMigrate();
    List<ServiceProcess> live = new ArrayList<>();
    int restarts = 0;
    List<Integer> exitCodes = new ArrayList<>();
    try {
      for (int i = 0; i < processes; i++) {
        live.add(start(cfg, port));
      }
      for (ServiceProcess p : live) {
        p.awaitReady(Duration.ofSeconds(60));
      }
      long t0 = System.nanoTime();
      RpcLoad load = RpcLoad.oneShot(port, CLIENTS, 0);
      try {
        Thread.sleep(500);
        for (int round = 0; round < rounds; round++) {
          for (int i = 0; i < processes; i++) {
            ServiceProcess replacement = start(cfg, port).awaitReady(Duration.ofSeconds(60));
            ServiceProcess old = live.set(i, replacement);
            old.terminate();
            exitCodes.add(old.awaitExit(Duration.ofSeconds(60)));
            restarts++;
          }
        }
        Thread.sleep(500);
      } finally {
        load.close();
      }
      double seconds = (System.nanoTime() - t0) / 1e9;
      long failures = load.failures();
      boolean cleanExits = exitCodes.stream().allMatch(c -> c == 0);
      // Processes that bind their own sockets must close them: the drain closes a listener only once
      // its accept queue is empty, leaving a window between that look and close() in which, without
      // request migration, the kernel resets what reaches the closing listener's queue (docs/shutdown.md).
      // So with tcp_migrate_req=1 a loss is a finding and judged; with 0 the count is reported, not
      // judged. The handover scenarios, whose sockets are never closed, are judged 0 without migration.
      boolean ok = cleanExits && load.transactions.get() > 0 && ("0".equals(migrate) || failures == 0);
      String what = "rolling restart x" + restarts + ", tcp_migrate_req=" + migrate
          + (namespace.isEmpty() ? "" : " (netns)");
      String detail = String.format("%d processes, %d rounds in %.0f s, %d transactions (%.0f/s), %d failed connects, "
          + "drains exit %s%s", processes, rounds, seconds, load.transactions.get(), load.transactions.get() / seconds,
          load.failedConnects.get(),
          cleanExits ? "0" : exitCodes.toString(), failures == 0 ? "" : "; " + load.firstErrors());
      long rss = live.stream().mapToLong(p -> ProcessReadings.rssBytes(p.pid())).sum();
      return new ScenarioResult("rolling-restart", what, load.connections.get() + load.failedConnects.get(),
          failures, ScenarioResult.mib(rss), detail, ok);
    } finally {
      live.forEach(ServiceProcess::close);
    }
  }

  private static ServiceProcess start(SoakConfig cfg, int port) throws IOException {
    return ServiceProcess.launchJar(cfg.rpcJar(), Map.of(), "--port", Integer.toString(port), "--admin-port", "0",
        "--host", "127.0.0.1", "--instances", "1", "--mode", "reuseport", "--drain-timeout", "10s");
  }

  static String readMigrate() {
    try {
      return Files.readString(Path.of("/proc/sys/net/ipv4/tcp_migrate_req")).trim();
    } catch (IOException e) {
      return "unavailable";
    }
  }
}
