package io.portshare.soak;

import io.portshare.kit.RpcWire;

import java.io.IOException;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Closed-loop RPC load on blocking sockets, one thread per client: either one transaction per
 * connection (connect, 64 B frame, echo, reset) or long-lived connections that reconnect after a
 * failure. Counts what succeeded and what failed; never stops on a failure.
 */
final class RpcLoad implements AutoCloseable {

  private static final byte[] FRAME = RpcWire.frame(64, 7);

  final AtomicLong transactions = new AtomicLong();
  final AtomicLong failedTransactions = new AtomicLong();
  final AtomicLong connections = new AtomicLong();
  final AtomicLong failedConnects = new AtomicLong();
  final AtomicLong brokenConnections = new AtomicLong();
  /** Each broken long-lived connection: {its local port, System.nanoTime() when it connected}. */
  final Queue<long[]> broken = new ConcurrentLinkedQueue<>();
  /** The local ports of the long-lived connections open now. */
  final Set<Integer> openPorts = ConcurrentHashMap.newKeySet();
  /** System.nanoTime() at which each failed one-transaction connection began to connect. */
  final Queue<Long> failedStarts = new ConcurrentLinkedQueue<>();
  private final AtomicBoolean stop = new AtomicBoolean();
  private final List<Thread> threads = new ArrayList<>();
  private final List<String> firstErrors = new ArrayList<>();
  private final long limit;

  /** @param limit stop after this many transactions in all (0: until closed) */
  private RpcLoad(long limit) {
    this.limit = limit;
  }

  static RpcLoad oneShot(int port, int threads, long limit) {
    RpcLoad load = new RpcLoad(limit);
    for (int i = 0; i < threads; i++) {
      load.start("rpc-1x-" + i, () -> load.oneShotLoop(port));
    }
    return load;
  }

  static RpcLoad persistent(int port, int threads) {
    RpcLoad load = new RpcLoad(0);
    for (int i = 0; i < threads; i++) {
      load.start("rpc-keep-" + i, () -> load.persistentLoop(port));
    }
    return load;
  }

  private void start(String name, Runnable r) {
    Thread t = new Thread(r, name);
    t.setDaemon(true);
    threads.add(t);
    t.start();
  }

  private boolean more() {
    return !stop.get() && (limit == 0 || transactions.get() + failedTransactions.get() < limit);
  }

  private void oneShotLoop(int port) {
    while (more()) {
      RpcWire w;
      long startedAt = System.nanoTime();
      try {
        w = new RpcWire(null, port, true);
      } catch (IOException e) {
        failedConnects.incrementAndGet();
        failedTransactions.incrementAndGet();
        failedStarts.add(startedAt);
        note(e);
        continue;
      }
      connections.incrementAndGet();
      try (w) {
        w.transact(FRAME);
        transactions.incrementAndGet();
      } catch (IOException e) {
        failedTransactions.incrementAndGet();
        failedStarts.add(startedAt);
        note(e);
      }
    }
  }

  private void persistentLoop(int port) {
    while (more()) {
      RpcWire w;
      try {
        w = new RpcWire(port);
      } catch (IOException e) {
        failedConnects.incrementAndGet();
        note(e);
        pause();
        continue;
      }
      connections.incrementAndGet();
      long connectedAt = System.nanoTime();
      int localPort = w.socket().getLocalPort();
      openPorts.add(localPort);
      try (w) {
        while (more()) {
          w.transact(FRAME);
          transactions.incrementAndGet();
        }
      } catch (IOException e) {
        failedTransactions.incrementAndGet();
        brokenConnections.incrementAndGet();
        broken.add(new long[] {localPort, connectedAt});
        note(e);
      } finally {
        openPorts.remove(localPort);
      }
    }
  }

  private static void pause() {
    try {
      Thread.sleep(20);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void note(IOException e) {
    synchronized (firstErrors) {
      if (firstErrors.size() < 3) {
        firstErrors.add(e.toString());
      }
    }
  }

  String firstErrors() {
    synchronized (firstErrors) {
      return String.join("; ", firstErrors);
    }
  }

  long failures() {
    return failedTransactions.get();
  }

  /** Waits for a limited load to finish. */
  void await() throws InterruptedException {
    for (Thread t : threads) {
      t.join();
    }
  }

  @Override
  public void close() throws InterruptedException {
    stop.set(true);
    await();
  }
}
