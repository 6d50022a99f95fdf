package io.portshare.runtime.warmup;

import io.portshare.runtime.WarmUpExchange;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.NetSocket;
import io.vertx.core.net.SocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The warm-up before ready. A fresh JVM answers a connection storm at a fraction of its speed
 * until the JIT has compiled its hot paths (static-server right after ready: 1,861 of 10,000
 * connections answered at 4,000/s, where nginx answers all). So before readiness turns true, the
 * runtime drives the service's own {@link WarmUpExchange} over loopback, one new connection per
 * exchange, until the exchange rate has settled on every instance or the bound has passed.
 *
 * <p>The client connections run on the service's own event loops: in {@code pinned} mode each
 * loop's CPU steers its connections to its own listener, in {@code reuseport} the kernel's hash
 * spreads them over all listeners, in {@code shared} Vert.x's acceptor does. Either way the
 * warm-up only ends once every instance has accepted {@link Settling#MIN_PER_INSTANCE} connections;
 * {@link Settling} says when the warm-up has settled.
 */
public final class WarmUp {

  private static final Logger LOG = LoggerFactory.getLogger(WarmUp.class);
  private static final long TICK_MILLIS = 250;
  /** Exchanges in flight per event loop: enough to keep a loop busy while its peer works. */
  private static final int IN_FLIGHT_PER_LOOP = 8;

  /**
   * What a warm-up did. {@code ended}: "settled", "bound" (the --warmup limit), "failing", or
   * "stopped" (a stop was asked for).
   */
  public record Result(Duration took, long answered, long failed, long minPerInstance, String ended) {}

  private final WarmUpExchange exchange;
  private final SocketAddress target;
  private final Duration limit;
  private final StopSignal stopRequest;
  private final LongAdder answered = new LongAdder();
  private final LongAdder failed = new LongAdder();
  private final AtomicInteger running = new AtomicInteger();
  private final CountDownLatch allStopped = new CountDownLatch(1);
  private final List<NetClient> clients = new ArrayList<>();
  private volatile boolean stopping;

  public WarmUp(WarmUpExchange exchange, SocketAddress target, Duration limit, StopSignal stopRequest) {
    this.exchange = exchange;
    this.target = target;
    this.limit = limit;
    this.stopRequest = stopRequest;
  }

  /**
   * Drives the exchange from every event loop of {@code vertxes} (each with {@code loopsEach}
   * loops) until settled or bounded; blocks meanwhile. {@code leastPerInstance} says how many
   * warm-up connections the instance that accepted the fewest has accepted so far.
   */
  public Result run(List<Vertx> vertxes, int loopsEach, LongSupplier leastPerInstance) throws InterruptedException {
    long start = System.nanoTime();
    long deadline = start + limit.toNanos();
    LOG.info("warm-up: the service's own exchange over new connections, for up to {} ms", limit.toMillis());
    for (Vertx vertx : vertxes) {
      NetClient client = vertx.createNetClient(new NetClientOptions()
          .setConnectTimeout(2000)
          .setIdleTimeout(2)
          .setTcpNoDelay(true));
      clients.add(client);
      for (int i = 0; i < loopsEach * IN_FLIGHT_PER_LOOP; i++) {
        running.incrementAndGet();
        // From outside Vert.x each call takes the next event loop, so every loop gets its share.
        vertx.runOnContext(v -> next(vertx, client));
      }
    }
    Settling settling = new Settling(TICK_MILLIS);
    String ended;
    while (true) {
      if (stopRequest.await(TICK_MILLIS)) {
        ended = "stopped";
        break;
      }
      long least = leastPerInstance.getAsLong();
      Optional<String> end = settling.tick(answered.sum(), failed.sum(), least, System.nanoTime() >= deadline);
      LOG.debug("warm-up: {} exchanges/s, least per instance {}", settling.lastRate(), least);
      if (end.isPresent()) {
        ended = end.get();
        break;
      }
    }
    stopping = true;
    try {
      if (!allStopped.await(5, TimeUnit.SECONDS)) {
        LOG.warn("warm-up: {} exchanges still open after 5 s; going on", running.get());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    clients.forEach(NetClient::close);
    return new Result(Duration.ofNanos(System.nanoTime() - start), answered.sum(), failed.sum(),
        leastPerInstance.getAsLong(), ended);
  }

  /** One exchange on a new connection, then the next, on this event loop, until stopping. */
  private void next(Vertx vertx, NetClient client) {
    if (stopping) {
      if (running.decrementAndGet() == 0) {
        allStopped.countDown();
      }
      return;
    }
    client.connect(target).onComplete(ar -> {
      if (ar.failed()) {
        failed.increment();
        vertx.setTimer(10, t -> next(vertx, client));
        return;
      }
      NetSocket socket = ar.result();
      Buffer received = Buffer.buffer();
      boolean[] done = {false};
      socket.handler(bytes -> {
        received.appendBuffer(bytes);
        if (!done[0] && exchange.answered(received, false)) {
          done[0] = true;
          socket.close();
        }
      });
      socket.exceptionHandler(e -> {});
      socket.closeHandler(v -> {
        if (done[0] || exchange.answered(received, true)) {
          answered.increment();
        } else {
          failed.increment();
        }
        next(vertx, client);
      });
      socket.write(exchange.request().copy());
    });
  }

}
