package io.portshare.rpc.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import io.portshare.kit.FuzzRun;
import io.portshare.kit.LogCapture;
import io.portshare.kit.PrometheusText;
import io.portshare.kit.RawExchange;
import io.portshare.kit.RpcWire;
import io.portshare.rpc.RpcService;
import io.portshare.runtime.Runtimes;
import io.portshare.runtime.impl.ServiceRuntime;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Random and mutated byte streams against a real echo server: each is answered exactly as the
 * protocol says, byte for byte: the echo of every whole frame up to the first oversized length or
 * the end of the stream, nothing after, then a close,
 * nothing escapes a handler (no WARN/ERROR log, no "other" connection error), and a well-behaved
 * client served at the same time sees no error at all. {@link FuzzRun} says how to run more cases.
 */
class RpcFuzzTest {

  private static final int MAX_PAYLOAD = 4096;

  @RegisterExtension
  final Runtimes runtimes = new Runtimes();

  /** The flags that choose the engine under test: none, the default (own). {@code ...OnVertxTest} overrides it. */
  List<String> engineFlags() {
    return List.of();
  }

  @Test
  void hostileStreamsAreAnsweredByTheProtocolAndHarmNoOtherClient() throws Exception {
    try (LogCapture log = LogCapture.attach()) {
      List<String> flags = new ArrayList<>(List.of("--port", "0", "--admin-port", "0",
          "--host", "127.0.0.1", "--instances", "2", "--mode", "shared", "--max-frame", MAX_PAYLOAD + "B",
          "--idle-timeout", "5s"));
      flags.addAll(engineFlags());
      ServiceRuntime rt = runtimes.start(new RpcService(), flags.toArray(String[]::new));
      FuzzRun.Outcome run = FuzzRun.run(rt.port(), r -> RpcStreams.generate(r, MAX_PAYLOAD), RpcFuzzTest::check,
          RpcFuzzTest::describe, RpcFuzzTest::wellBehavedClient);

      assertThat(run.failures()).as("cases answered otherwise than the protocol says").isEmpty();
      assertThat(run.served().errors()).as("errors seen by the well-behaved client").isZero();
      assertThat(run.served().exchanges()).as("transactions of the well-behaved client").isPositive();
      PrometheusText metrics = PrometheusText.parse(rt.registry().scrape());
      assertThat(metrics.named("portshare_rpc_connection_errors_total").stream()
          .filter(m -> "other".equals(m.labels().get("kind"))).mapToDouble(PrometheusText.Sample::value).sum())
          .as("exceptions caught in the echo handler").isZero();
      assertThat(metrics.sum("portshare_rpc_frames_rejected_total")).as("oversized lengths rejected").isPositive();
      assertThat(log.warningsAndErrors()).as("warnings and errors logged").isEmpty();
    }
  }

  /**
   * Exactly the reference's answer, also when the stream holds an oversized length: every whole
   * frame before it is answered (the server half-closes and lingers rather than reset them away),
   * nothing from it on; and the connection closes (else the read times out).
   */
  private static String check(RpcStreams.Case c, int port, Random r) throws IOException {
    byte[] got = RawExchange.exchange(port, c.bytes(), r, 8, 4096);
    if (Arrays.equals(got, c.expected())) {
      return null;
    }
    return "answered " + got.length + " bytes, expected " + c.expected().length
        + (c.rejected() ? " (then the close for the oversized length)" : "") + "; first difference at byte "
        + Arrays.mismatch(got, c.expected());
  }

  private static String describe(RpcStreams.Case c) {
    return c.kind() + ", " + c.bytes().length + " bytes, starts "
        + HexFormat.of().formatHex(c.bytes(), 0, Math.min(64, c.bytes().length));
  }

  /** Pipelines frames of 64 B and 1 KiB on one connection, checking each echo. */
  private static FuzzRun.Served wellBehavedClient(int port, BooleanSupplier stopped) {
    long done = 0;
    long errors = 0;
    byte[][] frames = {RpcWire.frame(64, 1), RpcWire.frame(1024, 2), RpcWire.frame(0, 3)};
    while (!stopped.getAsBoolean()) {
      try (RpcWire w = new RpcWire(port)) {
        for (int round = 0; round < 200 && !stopped.getAsBoolean(); round++) {
          for (byte[] f : frames) {
            w.write(f);
          }
          for (byte[] f : frames) {
            w.expect(f);
            done++;
          }
        }
      } catch (IOException e) {
        errors++;
      }
    }
    return new FuzzRun.Served(done, errors);
  }
}
