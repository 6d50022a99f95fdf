package io.portshare.rpc.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import io.portshare.kit.LogCapture;
import io.portshare.kit.RawExchange;
import io.portshare.rpc.RpcService;
import io.portshare.runtime.ServiceRuntime;
import io.portshare.kit.PrometheusText;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Random and mutated byte streams against a real echo server: each is answered exactly as the
 * protocol says, byte for byte: the echo of every whole frame up to the first oversized length or
 * the end of the stream, nothing after, then a close,
 * nothing escapes a handler (no WARN/ERROR log, no "other" connection error), and a well-behaved
 * client served at the same time sees no error at all.
 *
 * <p>{@code -Dfuzz.cases=N} runs N cases (default 2000), {@code -Dfuzz.seed=S} another seed.
 */
class RpcFuzzTest {

  private static final int MAX_PAYLOAD = 4096;
  private static final int CASES = Integer.getInteger("fuzz.cases", 2000);
  private static final long SEED = Long.getLong("fuzz.seed", 20261130L);
  private static final int WORKERS = 3;

  @Test
  void hostileStreamsAreAnsweredByTheProtocolAndHarmNoOtherClient() throws Exception {
    try (LogCapture log = LogCapture.attach()) {
      ServiceRuntime rt = ServiceRuntime.start(new RpcService(), "--port", "0", "--admin-port", "0",
          "--host", "127.0.0.1", "--instances", "2", "--mode", "shared", "--max-frame", MAX_PAYLOAD + "B",
          "--idle-timeout", "5s");
      ExecutorService pool = Executors.newFixedThreadPool(WORKERS + 1);
      AtomicBoolean stop = new AtomicBoolean();
      try {
        Future<long[]> goodClient = pool.submit(() -> wellBehavedClient(rt.port(), stop));
        List<Future<List<String>>> workers = new ArrayList<>();
        for (int w = 0; w < WORKERS; w++) {
          int worker = w;
          workers.add(pool.submit(() -> runCases(rt.port(), worker)));
        }
        List<String> failures = new ArrayList<>();
        for (Future<List<String>> f : workers) {
          failures.addAll(f.get());
        }
        stop.set(true);
        long[] good = goodClient.get();

        assertThat(failures).as("cases answered otherwise than the protocol says").isEmpty();
        assertThat(good[1]).as("errors seen by the well-behaved client").isZero();
        assertThat(good[0]).as("transactions of the well-behaved client").isPositive();
        PrometheusText metrics = PrometheusText.parse(rt.registry().scrape());
        assertThat(metrics.named("portshare_rpc_connection_errors_total").stream()
            .filter(m -> "other".equals(m.labels().get("kind"))).mapToDouble(PrometheusText.Sample::value).sum())
            .as("exceptions caught in the echo handler").isZero();
        assertThat(metrics.sum("portshare_rpc_frames_rejected_total")).as("oversized lengths rejected").isPositive();
        assertThat(log.warningsAndErrors()).as("warnings and errors logged").isEmpty();
      } finally {
        stop.set(true);
        pool.shutdownNow();
        rt.stop(Duration.ofSeconds(2));
      }
    }
  }

  private static List<String> runCases(int port, int worker) {
    List<String> failures = new ArrayList<>();
    for (int i = worker; i < CASES && failures.size() < 5; i += WORKERS) {
      Random r = new Random(SEED * 1_000_003L + i);
      RpcStreams.Case c = RpcStreams.generate(r, MAX_PAYLOAD);
      try {
        // Exactly the reference's answer, also when the stream holds an oversized length: every whole
        // frame before it is answered (the server half-closes and lingers rather than reset them
        // away), nothing from it on; and the connection closes (else the read times out).
        byte[] got = exchange(port, c.bytes(), r);
        if (!Arrays.equals(got, c.expected())) {
          int same = Arrays.mismatch(got, c.expected());
          failures.add(describe(i, c, "answered " + got.length + " bytes, expected " + c.expected().length
              + (c.rejected() ? " (then the close for the oversized length)" : "") + "; first difference at byte "
              + same));
        }
      } catch (IOException e) {
        failures.add(describe(i, c, e.toString()));
      }
    }
    return failures;
  }

  private static String describe(int i, RpcStreams.Case c, String what) {
    String hex = HexFormat.of().formatHex(c.bytes(), 0, Math.min(64, c.bytes().length));
    return "case " + i + " (" + c.kind() + ", " + c.bytes().length + " bytes, seed " + SEED + "): " + what
        + "; starts " + hex;
  }

  private static byte[] exchange(int port, byte[] bytes, Random r) throws IOException {
    return RawExchange.exchange(port, bytes, r, 8, 4096);
  }

  /** Pipelines frames of 64 B and 1 KiB on one connection, checking each echo; returns {transactions, errors}. */
  private static long[] wellBehavedClient(int port, AtomicBoolean stop) {
    AtomicLong done = new AtomicLong();
    long errors = 0;
    byte[][] frames = {frame(64, 1), frame(1024, 2), frame(0, 3)};
    while (!stop.get()) {
      try (Socket s = new Socket()) {
        s.setTcpNoDelay(true);
        s.setSoTimeout(15_000);
        s.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
        OutputStream out = s.getOutputStream();
        DataInputStream in = new DataInputStream(s.getInputStream());
        for (int round = 0; round < 200 && !stop.get(); round++) {
          for (byte[] f : frames) {
            out.write(f);
          }
          out.flush();
          for (byte[] f : frames) {
            byte[] answer = new byte[f.length];
            in.readFully(answer);
            if (!Arrays.equals(answer, f)) {
              errors++;
            }
            done.incrementAndGet();
          }
        }
      } catch (IOException e) {
        errors++;
      }
    }
    return new long[] {done.get(), errors};
  }

  private static byte[] frame(int size, int seed) {
    ByteBuffer b = ByteBuffer.allocate(4 + size).putInt(size);
    for (int i = 0; i < size; i++) {
      b.put((byte) (i * 131 + seed));
    }
    return b.array();
  }
}
