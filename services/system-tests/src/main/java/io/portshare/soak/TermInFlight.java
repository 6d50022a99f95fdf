package io.portshare.soak;

import io.portshare.kit.RpcWire;

import io.portshare.kit.ServiceProcess;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * SIGTERM while requests are in flight: every RPC frame the clients sent before the signal, and
 * every HTTP body whose request had arrived, is answered in full before the process exits 0.
 */
final class TermInFlight {

  private static final int RPC_CONNECTIONS = 8;
  private static final int FRAMES = 400;
  private static final int HTTP_CONNECTIONS = 4;
  private static final int BIG_FILE = 32 << 20;

  private TermInFlight() {}

  /** Each connection writes all its frames (1 KiB each) before anyone reads; then SIGTERM; then the reading. */
  static ScenarioResult rpc(SoakConfig cfg) throws Exception {
    int port = cfg.port(4, 0);
    ExecutorService pool = Executors.newCachedThreadPool();
    try (ServiceProcess s = SoakConfig.serve(cfg.rpcJar(), port,
        // Cold, as the harness starts it: the SIGTERM lands while the event loops may still have
        // connections in their accept queues, and the drain must accept and answer those too.
        "--drain-timeout", "20s")) {
      CountDownLatch written = new CountDownLatch(RPC_CONNECTIONS);
      CountDownLatch termed = new CountDownLatch(1);
      List<Future<Long>> answered = new ArrayList<>();
      for (int c = 0; c < RPC_CONNECTIONS; c++) {
        int seed = c;
        answered.add(pool.submit(() -> {
          byte[] frame = RpcWire.frame(1024, seed);
          try (RpcWire w = new RpcWire(port)) {
            Future<?> writer = pool.submit(() -> {
              for (int i = 0; i < FRAMES; i++) {
                w.write(frame);
              }
              written.countDown();
              return null;
            });
            termed.await();
            long n = 0;
            try {
              for (; n < FRAMES; n++) {
                w.expect(frame);
              }
            } catch (IOException e) {
              // Counted below as frames without an answer.
            }
            writer.get();
            return n;
          }
        }));
      }
      // 400 KiB a connection fits the socket buffers, so the writes finish with nothing read yet.
      boolean allWritten = written.await(10, TimeUnit.SECONDS);
      s.terminate();
      termed.countDown();
      long got = 0;
      for (Future<Long> f : answered) {
        got += f.get();
      }
      int exit = s.awaitExit(Duration.ofSeconds(60));
      long sent = (long) RPC_CONNECTIONS * FRAMES;
      boolean ok = got == sent && exit == 0;
      String detail = String.format("%d frames of 1 KiB sent before SIGTERM%s, %d answered, exit %d", sent,
          allWritten ? "" : " (writes still blocked at the signal)", got, exit);
      return new ScenarioResult("sigterm-rpc", "SIGTERM with " + sent + " frames in flight", RPC_CONNECTIONS,
          sent - got, "-", detail, ok);
    } finally {
      pool.shutdownNow();
    }
  }

  /** Downloads of a 32 MiB file under way when SIGTERM arrives must complete. */
  static ScenarioResult statics(SoakConfig cfg, Path scratch) throws Exception {
    int port = cfg.port(5, 0);
    Path root = Files.createDirectories(scratch.resolve("sigterm-site"));
    byte[] big = new byte[BIG_FILE];
    new Random(5).nextBytes(big);
    Files.write(root.resolve("big.bin"), big);
    ExecutorService pool = Executors.newCachedThreadPool();
    try (ServiceProcess s = SoakConfig.serve(cfg.staticJar(), port, SoakConfig.own("root", root.toString()),
        "--drain-timeout", "30s")) {
      CountDownLatch started = new CountDownLatch(HTTP_CONNECTIONS);
      CountDownLatch termed = new CountDownLatch(1);
      List<Future<Boolean>> complete = new ArrayList<>();
      for (int c = 0; c < HTTP_CONNECTIONS; c++) {
        complete.add(pool.submit(() -> download(port, big, started, termed)));
      }
      started.await(30, TimeUnit.SECONDS);
      s.terminate();
      termed.countDown();
      long good = 0;
      for (Future<Boolean> f : complete) {
        good += f.get() ? 1 : 0;
      }
      int exit = s.awaitExit(Duration.ofSeconds(60));
      boolean ok = good == HTTP_CONNECTIONS && exit == 0;
      String detail = String.format("%d downloads of %d MiB under way at SIGTERM, %d complete and intact, exit %d",
          HTTP_CONNECTIONS, BIG_FILE >> 20, good, exit);
      return new ScenarioResult("sigterm-static", "SIGTERM with bodies in flight", HTTP_CONNECTIONS,
          HTTP_CONNECTIONS - good, "-", detail, ok);
    } finally {
      pool.shutdownNow();
    }
  }

  /** GET the big file; read the head and 64 KiB, wait for the signal, then read the rest and compare. */
  private static boolean download(int port, byte[] big, CountDownLatch started, CountDownLatch termed)
      throws Exception {
    try (Socket so = new Socket("127.0.0.1", port)) {
      so.setSoTimeout(60_000);
      OutputStream out = so.getOutputStream();
      out.write("GET /big.bin HTTP/1.1\r\nHost: t\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
      InputStream in = so.getInputStream();
      ByteArrayOutputStream head = new ByteArrayOutputStream();
      while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
        int b = in.read();
        if (b < 0) {
          started.countDown();
          return false;
        }
        head.write(b);
      }
      byte[] body = new byte[big.length];
      int at = in.readNBytes(body, 0, 64 * 1024);
      started.countDown();
      termed.await();
      at += in.readNBytes(body, at, body.length - at);
      return head.toString(StandardCharsets.ISO_8859_1).startsWith("HTTP/1.1 200") && at == big.length
          && Arrays.equals(body, big);
    } catch (IOException e) {
      started.countDown();
      return false;
    }
  }
}
