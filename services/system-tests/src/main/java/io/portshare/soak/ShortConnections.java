package io.portshare.soak;

import io.portshare.kit.ServiceProcess;

import java.time.Duration;
import java.util.List;

/**
 * Connections of one transaction each, in a row: afterwards the server's open descriptors and its
 * heap after a full GC are back where they were after a warm-up. A leak of one descriptor or one
 * buffer per connection shows after 20,000, let alone 1,000,000.
 */
final class ShortConnections {

  private static final int CLIENT_THREADS = 4;

  private ShortConnections() {}

  static ScenarioResult run(SoakConfig cfg, long count) throws Exception {
    int port = cfg.port(0, 0);
    try (ServiceProcess s = SoakConfig.serve(cfg.rpcJar(), port)) {
      long warm = Math.min(5_000, Math.max(1_000, count / 10));
      RpcLoad warmUp = RpcLoad.oneShot(port, CLIENT_THREADS, warm);
      warmUp.await();
      settle(s);
      long fds0 = s.openFds();
      long heap0 = s.heapAfterGc();
      long t0 = System.nanoTime();
      RpcLoad load = RpcLoad.oneShot(port, CLIENT_THREADS, count);
      load.await();
      double secs = (System.nanoTime() - t0) / 1e9;
      settle(s);
      long fds1 = s.openFds();
      long heap1 = s.heapAfterGc();
      long rss = s.rssBytes();
      long failures = load.failures() + warmUp.failures();
      // A full GC leaves a few hundred KB of noise (meters, TLABs); a leak of even 100 B per
      // connection is 2 MB after 20,000 connections.
      long heapSlack = Math.max(2L << 20, heap0 / 10);
      boolean ok = failures == 0 && fds1 <= fds0 + 2 && heap1 <= heap0 + heapSlack;
      String detail = String.format("fds %d -> %d, heap after GC %s -> %s, %.0f conn/s%s", fds0, fds1,
          ScenarioResult.mib(heap0), ScenarioResult.mib(heap1), load.transactions.get() / secs,
          failures == 0 ? "" : ", first errors: " + load.firstErrors());
      return new ScenarioResult("short-connections", "connect, 1 x 64 B, reset; in a row, 4 clients",
          load.connections.get(), failures, ScenarioResult.mib(rss), detail, ok);
    }
  }

  /** Waits until the server has closed every connection the clients reset. */
  static void settle(ServiceProcess s) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (s.metric("portshare_connections_open") > 0 && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
  }
}
