package io.portshare.bench;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.transport.Transport;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * Runs a {@link LoadSpec} on its own Vert.x (native epoll when present) with one verticle per
 * event loop, and returns what it measured. Blocks for warm-up + duration.
 */
public final class LoadGenerator {

  /** Lets the event loops connect before the clock starts. */
  private static final long START_DELAY_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

  private LoadGenerator() {}

  public static String transport() {
    return Transport.EPOLL.available() ? "epoll" : "nio";
  }

  /** The request frame: 4-byte big-endian length, then a payload that is not all one byte value. */
  static ByteBuf frame(int payloadSize) {
    ByteBuf buf = Unpooled.directBuffer(4 + payloadSize, 4 + payloadSize);
    buf.writeInt(payloadSize);
    for (int i = 0; i < payloadSize; i++) {
      buf.writeByte((i * 31 + 7) & 0xff);
    }
    return Unpooled.unreleasableBuffer(buf.asReadOnly());
  }

  public static LoadResult run(LoadSpec spec, Progress progress) {
    Vertx vertx = Vertx.builder()
        .with(new VertxOptions().setEventLoopPoolSize(spec.eventLoops()).setWorkerPoolSize(1)
            .setPreferNativeTransport(true))
        .withTransport(Transport.EPOLL.available() ? Transport.EPOLL : Transport.NIO)
        .build();
    boolean closed = false;
    try {
      ByteBuf frame = frame(spec.payloadSize());
      LongAdder done = new LongAdder();
      RunClock clock = new RunClock(System.nanoTime() + START_DELAY_NANOS, spec.warmup().toNanos(),
          spec.duration().toNanos());
      int loops = spec.eventLoops();
      List<LoopStats> stats = new ArrayList<>();
      for (int i = 0; i < loops; i++) {
        stats.add(new LoopStats(clock, done));
      }
      AtomicInteger next = new AtomicInteger();
      await(vertx.deployVerticle(() -> {
        int i = next.getAndIncrement();
        int share = spec.connections() / loops + (i < spec.connections() % loops ? 1 : 0);
        int first = i * (spec.connections() / loops) + Math.min(i, spec.connections() % loops);
        return new LoadVerticle(spec, frame, stats.get(i), first, share);
      }, new DeploymentOptions().setInstances(loops)));
      try (Progress.Bar bar = progress.start(clock, done)) {
        waitUntil(clock.measureEnd);
      }
      // Closing undeploys each verticle on its own loop: after that the loops' figures are final and visible here.
      closed = true;
      await(vertx.close());
      return LoadResult.merge(stats, clock.measuredSeconds());
    } finally {
      if (!closed) {
        await(vertx.close());
      }
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

  private static <T> T await(io.vertx.core.Future<T> f) {
    try {
      return f.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException("load generator: " + e.getMessage(), e);
    }
  }
}
