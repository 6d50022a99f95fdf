package io.portshare.bench.load;

import static org.assertj.core.api.Assertions.assertThat;

import io.portshare.bench.cpu.CpuProbe;
import io.portshare.bench.latency.Verdict;
import java.time.Duration;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/**
 * The open loop as an instrument, against servers whose timing is known ({@link TimedServer},
 * real loopback sockets): it must report a known delay as that delay, never less; spread a known
 * stall over every request due during it (a generator with coordinated omission reports about one
 * slow request per connection instead); and keep the rate asked or say it did not. Nothing here
 * asserts speed: only the delays and pauses the servers were told to make, with tolerances for a
 * busy machine (each is explained where it is asserted).
 */
class OpenLoopInstrumentTest {

  private static final long MICROS_PER_MS = 1000;
  /** HdrHistogram keeps three significant digits: a value may read up to 0.1% lower than it was. */
  private static final double HDR_FLOOR = 0.999;

  private static LoadSpec spec(int port, int connections, int perConnection, long rate, Duration duration) {
    return new LoadSpec("127.0.0.1", port, connections, perConnection, 64, Duration.ofMillis(500), duration, rate, 1,
        Duration.ofSeconds(5));
  }

  private static LoadGenerator.Recorded run(LoadSpec spec) {
    return LoadGenerator.run(spec, Wire.echo(spec.payloadSize()), Progress.none(), CpuProbe.UNKNOWN);
  }

  @Test
  void aServerThatAnswersAfter20msIsReportedAt20msNeverLess() throws Exception {
    long delayMs = 20;
    long rate = 200;
    try (TimedServer server = TimedServer.delaying(delayMs)) {
      // 16 connections at 200/s: one request per connection every 80 ms, so none waits behind another.
      LoadGenerator.Recorded r = run(spec(server.port(), 16, 1024, rate, Duration.ofSeconds(2)));
      Histogram h = r.latency();
      assertThat(r.measurement().errors()).isEmpty();
      // Every reply left the server 20 ms after it read the request, which was after the request was due.
      assertThat(h.getMinValue()).isGreaterThanOrEqualTo((long) (delayMs * MICROS_PER_MS * HDR_FLOOR));
      // Above the delay: the send tick (0.2 ms), loopback, and the server thread's and the generator's
      // wake-ups on a shared 2-core machine, which reach milliseconds but not 12 ms at the median.
      assertThat(h.getValueAtPercentile(50)).isBetween((long) (delayMs * MICROS_PER_MS * HDR_FLOOR),
          (delayMs + 12) * MICROS_PER_MS);
      // The window holds exactly the requests due in it (2 s at 200/s), each answered: the rate is kept.
      Verdict v = new Verdict(rate, r.measurement().perSecond(), Double.NaN, Double.NaN);
      assertThat(r.measurement().perSecond()).isCloseTo(rate, org.assertj.core.data.Percentage.withPercentage(1));
      assertThat(v.flagged()).as(v.reasons()).isFalse();
    }
  }

  @Test
  void aStallOf400msIsSpreadOverEveryRequestDueDuringIt() throws Exception {
    // HTTP keep-alive: one request in flight per connection, so during a stall the schedule's next
    // requests cannot go out; a generator that timed from the send (or waited to send, closed loop)
    // would see about one slow request per connection.
    try (TimedServer server = TimedServer.httpStallingOnce(STALL_AFTER, PAUSE_MS, 1024)) {
      Wire http = Wire.http("127.0.0.1", "/1k.bin", false, 1024);
      assertStallSpread(server, LoadGenerator.run(spec(server.port(), CONNECTIONS, 1_000_000, RATE, Duration.ofSeconds(3)),
          http, Progress.none(), CpuProbe.UNKNOWN).latency());
    }
  }

  @Test
  void aStallOf400msIsSpreadOverEveryPipelinedRpcDueDuringIt() throws Exception {
    try (TimedServer server = TimedServer.stallingOnce(STALL_AFTER, PAUSE_MS)) {
      assertStallSpread(server, run(spec(server.port(), CONNECTIONS, 1024, RATE, Duration.ofSeconds(3))).latency());
    }
  }

  private static final long RATE = 1000;
  private static final long PAUSE_MS = 400;
  private static final int CONNECTIONS = 16;
  /** The stall begins with the 1500th request: 1 s into the 3 s window (after 0.5 s of warm-up). */
  private static final long STALL_AFTER = 1500;

  private static void assertStallSpread(TimedServer server, Histogram h) {
    assertThat(server.stallStart()).as("the server stalled").isPositive();
    // The request due as the stall began waited all of it. Above it, only how busy the machine is: a
    // starved server or generator adds latency (hundreds of ms on a shared 2-core machine), never removes it,
    // so the bounds that catch coordinated omission are the lower ones; the upper ones only say that the
    // generator does not invent more than the stall again.
    assertThat(h.getMaxValue()).isBetween((long) (PAUSE_MS * MICROS_PER_MS * HDR_FLOOR), 2 * PAUSE_MS * MICROS_PER_MS);
    // Requests were due every 1 ms through the stall; the one due t ms into it waited (400 - t) ms.
    // So about rate x pause x (1 - k) requests waited longer than k x pause: 300, 200 and 100 of them for
    // k = 1/4, 1/2, 3/4. Lower bound: a quarter less, for the requests whose connection was between two
    // of them; a generator that timed from the send would count about one per connection (16) above each
    // line, far below the lowest bound (75). Upper bound: twice as many, plus one per connection.
    for (double k : new double[] {0.25, 0.5, 0.75}) {
      long threshold = (long) (k * PAUSE_MS * MICROS_PER_MS);
      long expected = (long) (RATE * PAUSE_MS / 1000.0 * (1 - k));
      assertThat(countAbove(h, threshold)).as("requests slower than %d us", threshold)
          .isBetween(expected * 3 / 4, 2 * expected + CONNECTIONS);
    }
  }

  @Test
  void aServerTooSlowForTheRateAskedIsFlagged() throws Exception {
    long rate = 400;
    // 4 connections to a server that answers each request 50 ms after reading it, one at a time per
    // connection: it answers at most 80 a second, whatever the machine, so 400/s cannot be reached.
    try (TimedServer server = TimedServer.delaying(50)) {
      LoadSpec spec = new LoadSpec("127.0.0.1", server.port(), 4, 1024, 64, Duration.ofMillis(200),
          Duration.ofSeconds(1), rate, 1, Duration.ofSeconds(2));
      Measurement m = run(spec).measurement();
      Verdict v = new Verdict(rate, m.perSecond(), m.cpu().clientUtilisation(), Double.NaN);
      assertThat(m.perSecond()).isLessThan(rate * Verdict.RATE_SHARE);
      assertThat(v.flagged()).isTrue();
      assertThat(v.shortOfRate()).isTrue();
      assertThat(v.reasons()).startsWith("rate ");
      // What was due in the window and had no answer by the end of the drain is counted, not dropped:
      // answered + unanswered = the 400 requests due in the 1 s window.
      assertThat(m.errors()).containsKey(ErrorKind.UNANSWERED.label());
      assertThat(m.operations() + m.errors().get(ErrorKind.UNANSWERED.label())).isEqualTo(rate);
    }
  }

  private static long countAbove(Histogram h, long micros) {
    return h.getTotalCount() - h.getCountBetweenValues(0, micros);
  }

}
