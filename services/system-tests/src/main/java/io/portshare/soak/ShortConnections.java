package io.portshare.soak;

import io.portshare.kit.ProcessReadings;
import io.portshare.kit.ServiceProcess;

import java.time.Duration;
import java.util.List;

/**
 * Connections of one transaction each, in a row: afterwards the server's open descriptors and its
 * heap after a full GC are back where they were after a warm-up. A leak of one descriptor, or of
 * 100 bytes, per connection shows after 20,000, let alone 1,000,000.
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
      long fds0 = ProcessReadings.openFds(s.pid());
      long heap0 = ProcessReadings.heapAfterGc(s.pid());
      long t0 = System.nanoTime();
      RpcLoad load = RpcLoad.oneShot(port, CLIENT_THREADS, count);
      load.await();
      double secs = (System.nanoTime() - t0) / 1e9;
      settle(s);
      long fds1 = ProcessReadings.openFds(s.pid());
      long heap1 = ProcessReadings.heapAfterGc(s.pid());
      long rss = ProcessReadings.rssBytes(s.pid());
      long failures = load.failures() + warmUp.failures();
      boolean ok = failures == 0 && fds1 <= fds0 + 2 && heap1 - heap0 <= heapBudget(count);
      String detail = String.format("fds %d -> %d, heap after GC %s -> %s (%+d KiB, at most %d KiB), %.0f conn/s%s",
          fds0, fds1, ScenarioResult.mib(heap0), ScenarioResult.mib(heap1), (heap1 - heap0) >> 10,
          heapBudget(count) >> 10, load.transactions.get() / secs,
          failures == 0 ? "" : ", first errors: " + load.firstErrors());
      return new ScenarioResult("short-connections", "connect, 1 x 64 B, reset; in a row, 4 clients",
          load.connections.get(), failures, ScenarioResult.mib(rss), detail, ok);
    }
  }

  /**
   * How much the heap after a full GC may grow over {@code connections}: what moves between two
   * readings of an idle server (measured within a few hundred KiB), plus 16 B a connection. A leak
   * of 100 B a connection, 2,000,000 B over 20,000, is over it.
   */
  static long heapBudget(long connections) {
    return (512L << 10) + 16 * connections;
  }

  /** Waits until the server has closed every connection the clients reset. */
  static void settle(ServiceProcess s) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (s.metric("portshare_connections_open") > 0 && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
  }
}
