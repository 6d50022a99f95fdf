package io.portshare.soak;

import io.portshare.kit.ProcessReadings;
import io.portshare.kit.RpcWire;
import io.portshare.kit.ServiceProcess;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Peers that hold a connection without finishing anything: slowloris on HTTP (a header byte now
 * and then), a half frame then silence on RPC, and an RPC client that writes and never reads. Each
 * must be closed by a timeout or held back by backpressure while a well-behaved client next to it
 * sees no error.
 */
final class SlowPeers {

  private static final int SLOW = 50;
  private static final Duration FLOOD_LIMIT = Duration.ofSeconds(30);

  private SlowPeers() {}

  static ScenarioResult slowloris(SoakConfig cfg) throws Exception {
    int port = cfg.port(6, 0);
    ExecutorService pool = Executors.newCachedThreadPool();
    try (ServiceProcess s = SoakConfig.serve(cfg.staticJar(), port, SoakConfig.own("header-timeout", "1s"))) {
      AtomicBoolean stop = new AtomicBoolean();
      Future<long[]> good = pool.submit(() -> goodHttp(port, stop));
      List<Future<Boolean>> slow = new ArrayList<>();
      for (int i = 0; i < SLOW; i++) {
        slow.add(pool.submit(() -> slowloris(port)));
      }
      long closed = 0;
      for (Future<Boolean> f : slow) {
        closed += f.get() ? 1 : 0;
      }
      stop.set(true);
      long[] g = good.get();
      boolean ok = closed == SLOW && g[1] == 0 && g[0] > 0;
      String detail = String.format("%d of %d slow heads closed by --header-timeout 1s; good client %d requests, "
          + "%d errors", closed, SLOW, g[0], g[1]);
      return new ScenarioResult("slowloris-http", "1 header byte per 200 ms", SLOW + 1,
          (SLOW - closed) + g[1], ScenarioResult.mib(ProcessReadings.rssBytes(s.pid())), detail, ok);
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * True when the server closed the connection within 10 s of a trickled head. A connect that
   * fails is not a close by the server: it counts against the scenario.
   */
  static boolean slowloris(int port) {
    Socket so;
    try {
      so = new Socket("127.0.0.1", port);
    } catch (IOException e) {
      return false;
    }
    try (so) {
      so.setSoTimeout(200);
      OutputStream out = so.getOutputStream();
      InputStream in = so.getInputStream();
      out.write("GET / HTTP/1.1\r\nHost: t\r\n".getBytes(StandardCharsets.ISO_8859_1));
      long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
      byte[] trickle = "X-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa".getBytes();
      int i = 0;
      while (System.nanoTime() < deadline) {
        out.write(trickle[i++ % trickle.length]);
        out.flush();
        try {
          if (in.read() < 0) {
            return true;
          }
        } catch (SocketTimeoutException e) {
          // Still open: trickle on.
        }
      }
      return false;
    } catch (IOException e) {
      return true; // reset or broken pipe: closed by the server
    }
  }

  private static long[] goodHttp(int port, AtomicBoolean stop) {
    long done = 0;
    long errors = 0;
    while (!stop.get()) {
      try (Socket so = new Socket("127.0.0.1", port)) {
        so.setSoTimeout(10_000);
        so.getOutputStream().write("GET / HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n"
            .getBytes(StandardCharsets.ISO_8859_1));
        String answer = new String(so.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
        if (answer.startsWith("HTTP/1.1 200 ")) {
          done++;
        } else {
          errors++;
        }
      } catch (IOException e) {
        errors++;
      }
    }
    return new long[] {done, errors};
  }

  /**
   * Half a frame then silence, and clients that write and never read, against an RPC server with
   * --idle-timeout 2s: the stalled ones are closed by it, the never-reading ones are held back by
   * backpressure (the server stops reading) and closed by it too; a good client sees no error.
   */
  static ScenarioResult rpcStalls(SoakConfig cfg) throws Exception {
    int port = cfg.port(7, 0);
    ExecutorService pool = Executors.newCachedThreadPool();
    ScheduledExecutorService watchdog = Executors.newSingleThreadScheduledExecutor();
    try (ServiceProcess s = SoakConfig.serve(cfg.rpcJar(), port, SoakConfig.own("idle-timeout", "2s"))) {
      long rss0 = ProcessReadings.rssBytes(s.pid());
      try (RpcLoad good = RpcLoad.persistent(port, 2)) {
        List<Future<Boolean>> stalls = new ArrayList<>();
        for (int i = 0; i < SLOW; i++) {
          stalls.add(pool.submit(() -> halfFrame(port)));
        }
        AtomicLong peakRss = new AtomicLong(rss0);
        List<Future<Long>> floods = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
          // --idle-timeout 2s closes a flood once the server has stopped reading; 30 s is plenty.
          floods.add(pool.submit(() -> neverRead(port, FLOOD_LIMIT, watchdog)));
        }
        while (floods.stream().anyMatch(f -> !f.isDone())) {
          peakRss.accumulateAndGet(ProcessReadings.rssBytes(s.pid()), Math::max);
          Thread.sleep(100);
        }
        long closed = 0;
        for (Future<Boolean> f : stalls) {
          closed += f.get() ? 1 : 0;
        }
        long maxWritten = 0;
        long floodsUnclosed = 0;
        for (Future<Long> f : floods) {
          long w = f.get();
          floodsUnclosed += w < 0 ? 1 : 0;
          maxWritten = Math.max(maxWritten, w);
        }
        good.close();
        long growth = peakRss.get() - rss0;
        // Bounded: what one connection can push before the server stops reading is socket buffers
        // plus Netty's high-water mark, a few MiB, not the 256 MiB each flood tries to send; and
        // every flood must have been closed by the server, not cut by the watchdog or never made.
        boolean bounded = floodsUnclosed == 0 && maxWritten < 64L << 20 && growth < 128L << 20;
        boolean ok = closed == SLOW && bounded && good.failures() == 0 && good.transactions.get() > 0;
        String detail = String.format("%d of %d half frames closed by --idle-timeout 2s; 4 never-reading clients "
            + "got at most %s in before the server stopped reading and closed them (%d not closed by it); RSS peak "
            + "+%s; good client %d transactions, %d failed", closed, SLOW, ScenarioResult.mib(maxWritten),
            floodsUnclosed, ScenarioResult.mib(growth), good.transactions.get(), good.failures());
        return new ScenarioResult("rpc-stalls", "half frame, then never-reading clients", SLOW + 4 + 2,
            (SLOW - closed) + good.failures() + (bounded ? 0 : 1), ScenarioResult.mib(peakRss.get()), detail, ok);
      }
    } finally {
      pool.shutdownNow();
      watchdog.shutdownNow();
    }
  }

  /**
   * True when the server closed a connection holding a half frame within 10 s, in order (end of
   * stream). A failed connect or send is not a close by the server, nor is a reset.
   */
  static boolean halfFrame(int port) {
    RpcWire w;
    try {
      w = new RpcWire(port);
      w.write(ByteBuffer.allocate(14).putInt(100).put(new byte[10]).array());
    } catch (IOException e) {
      return false;
    }
    try (w) {
      return w.closedByPeer(10_000);
    } catch (IOException e) {
      return false;
    }
  }

  /** {@link #neverRead} when the server did not close the connection in time, or took all 256 MiB. */
  static final long NOT_CLOSED = -1;
  /** {@link #neverRead} when the connection could not be made at all. */
  static final long NOT_CONNECTED = -2;

  /**
   * Writes 1 KiB frames and never reads, until a write fails (the server closed) or 256 MiB went in;
   * returns the bytes written, {@link #NOT_CLOSED} if the server had not closed the connection
   * within {@code limit} (a blocked write cannot time out, so a watchdog closes the socket and
   * that is told apart from the server's close), or {@link #NOT_CONNECTED}.
   */
  static long neverRead(int port, Duration limit, ScheduledExecutorService watchdog) {
    byte[] frame = RpcWire.frame(1020, 9);
    byte[] burst = new byte[64 * frame.length];
    for (int i = 0; i < 64; i++) {
      System.arraycopy(frame, 0, burst, i * frame.length, frame.length);
    }
    RpcWire w;
    try {
      w = new RpcWire(port);
      w.socket().setSendBufferSize(64 * 1024);
    } catch (IOException e) {
      return NOT_CONNECTED;
    }
    AtomicBoolean cutByUs = new AtomicBoolean();
    ScheduledFuture<?> cut = watchdog.schedule(() -> {
      cutByUs.set(true);
      w.close();
    }, limit.toMillis(), TimeUnit.MILLISECONDS);
    long written = 0;
    try (w) {
      while (written < 256L << 20) {
        w.write(burst);
        written += burst.length;
      }
      return NOT_CLOSED;
    } catch (IOException e) {
      return cutByUs.get() ? NOT_CLOSED : written;
    } finally {
      cut.cancel(false);
    }
  }
}
