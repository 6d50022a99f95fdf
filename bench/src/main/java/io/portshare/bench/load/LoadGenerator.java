package io.portshare.bench.load;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.EventLoop;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.EventExecutor;
import io.portshare.bench.cpu.CpuProbe;
import io.portshare.bench.cpu.CpuSpent;
import io.portshare.bench.cpu.CpuTime;
import io.portshare.rpc.client.Frames;
import io.portshare.rpc.codec.FrameEncoder;
import io.portshare.rpc.codec.RpcFrame;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;

/**
 * Runs a {@link LoadSpec} on raw Netty channels (native epoll when present), one event loop per
 * client thread, each loop owning its share of the connections; returns what it measured, with the
 * CPU this process and the server spent over the measured window. Blocks for warm-up + duration.
 */
public final class LoadGenerator {

  /** The first connects are spread over this time before the clock starts. */
  private static final long CONNECT_PACE_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

  private LoadGenerator() {}

  public static String transport() {
    return ClientTransport.best().label();
  }

  /**
   * The request frame, encoded by the codec: the payload is {@link Frames#pattern}, which is not all
   * one byte value.
   * The caller releases it once the run is over; the connections share it read-only.
   */
  static ByteBuf frame(int payloadSize) {
    int frameLength = RpcFrame.HEADER_LENGTH + payloadSize;
    return FrameEncoder.writeFrame(Unpooled.directBuffer(frameLength, frameLength),
        Unpooled.wrappedBuffer(Frames.pattern(payloadSize).getBytes()));
  }

  public static Measurement run(LoadSpec spec, Progress progress) {
    return run(spec, progress, CpuProbe.UNKNOWN);
  }

  /** As {@link #run(LoadSpec, Progress)}, reading the server's CPU through {@code server} at the window's edges. */
  public static Measurement run(LoadSpec spec, Progress progress, CpuProbe server) {
    return run(spec, Wire.echo(spec.payloadSize()), progress, server).measurement();
  }

  /** A measurement and every latency it recorded, for percentiles past those {@link LatencySummary} keeps. */
  public record Recorded(Measurement measurement, Histogram latency) {}

  /**
   * Runs {@code spec} speaking {@code wire} (whose request it releases at the end). An open loop
   * waits after the window, up to the spec's timeout, for the answers of requests due in it.
   */
  public static Recorded run(LoadSpec spec, Wire wire, Progress progress, CpuProbe server) {
    InetSocketAddress address = resolve(spec);
    ClientTransport transport = ClientTransport.best();
    MultiThreadIoEventLoopGroup group = new MultiThreadIoEventLoopGroup(spec.eventLoops(),
        new DefaultThreadFactory("bench-loop", true), transport.ioHandlers());
    try {
      LongAdder done = new LongAdder();
      RunClock clock = new RunClock(System.nanoTime() + CONNECT_PACE_NANOS, spec.warmup().toNanos(),
          spec.duration().toNanos());
      int loops = spec.eventLoops();
      List<LoopStats> stats = new ArrayList<>();
      List<LoopLoad> loads = new ArrayList<>();
      int i = 0;
      for (EventExecutor executor : group) {
        LoopStats s = new LoopStats(clock, done);
        int share = spec.connections() / loops + (i < spec.connections() % loops ? 1 : 0);
        int first = i * (spec.connections() / loops) + Math.min(i, spec.connections() % loops);
        stats.add(s);
        loads.add(new LoopLoad((EventLoop) executor, transport, address, spec, wire, s, first, share));
        i++;
      }
      loads.forEach(l -> l.start(CONNECT_PACE_NANOS));
      double client0;
      double server0;
      double client1;
      double server1;
      try (Progress.Bar bar = progress.start(clock, done)) {
        waitUntil(clock.measureStart);
        client0 = CpuTime.self();
        server0 = server.seconds();
        waitUntil(clock.measureEnd);
        client1 = CpuTime.self();
        server1 = server.seconds();
      }
      if (spec.openLoop()) {
        drain(loads, clock.measureEnd + spec.timeout().toNanos());
      }
      // Stopping runs on each loop: after it the loops' figures are final and visible here.
      loads.forEach(LoopLoad::stop);
      int cores = Math.min(loops, Runtime.getRuntime().availableProcessors());
      Histogram all = LatencySummary.newHistogram();
      Measurement m = LoopStats.merge(stats,
          new CpuSpent(client1 - client0, server1 - server0, clock.measuredSeconds(), cores), all);
      return new Recorded(m, all);
    } finally {
      group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
      wire.release();
    }
  }

  /** Waits until no request due in the window waits for its answer, or until {@code deadline}. */
  private static void drain(List<LoopLoad> loads, long deadline) {
    while (System.nanoTime() < deadline && loads.stream().anyMatch(LoopLoad::outstanding)) {
      waitUntil(Math.min(deadline, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(5)));
    }
  }

  private static InetSocketAddress resolve(LoadSpec spec) {
    try {
      return new InetSocketAddress(InetAddress.getByName(spec.host()), spec.port());
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException("unknown host \"" + spec.host() + "\" in --target");
    }
  }

  private static void waitUntil(long nanoTime) {
    long left;
    while ((left = nanoTime - System.nanoTime()) > 0) {
      try {
        TimeUnit.NANOSECONDS.sleep(left);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted", e);
      }
    }
  }
}
