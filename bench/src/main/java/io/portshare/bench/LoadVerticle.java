package io.portshare.bench;

import io.netty.buffer.ByteBuf;
import io.netty.util.concurrent.ScheduledFuture;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetClientOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The connections of a load run that live on one event loop, and that loop's timers. */
final class LoadVerticle extends VerticleBase {

  /** Open-loop send tick: requests go out at most this late, which the latency then shows. */
  static final long TICK_MICROS = 200;

  final LoopStats stats;
  final String host;
  final int port;
  private final LoadSpec spec;
  private final ByteBuf frame;
  private final int connections;
  private final int firstConnection;
  private final List<BenchConnection> all = new ArrayList<>();
  NetClient client;
  private long timeoutTimer = -1;
  private ScheduledFuture<?> ticker;

  LoadVerticle(LoadSpec spec, ByteBuf frame, LoopStats stats, int firstConnection, int connections) {
    this.spec = spec;
    this.frame = frame;
    this.stats = stats;
    this.host = spec.host();
    this.port = spec.port();
    this.firstConnection = firstConnection;
    this.connections = connections;
  }

  @Override
  public Future<?> start() {
    client = vertx.createNetClient(new NetClientOptions()
        .setTcpNoDelay(true)
        .setConnectTimeout((int) Math.min(Integer.MAX_VALUE, spec.timeout().toMillis()))
        .setReuseAddress(true));
    long intervalNanos = spec.openLoop() ? Math.max(1, spec.connections() * 1_000_000_000L / spec.ratePerSecond()) : 0;
    for (int i = 0; i < connections; i++) {
      BenchConnection c;
      if (spec.openLoop()) {
        // Stagger the connections' schedules so that the total rate is smooth, not bursts of C.
        long firstDue = stats.clock.start + (firstConnection + i) * intervalNanos / spec.connections();
        c = new OpenLoopConnection(this, frame, spec.transactionsPerConnection(), firstDue, intervalNanos);
      } else {
        c = new ClosedLoopConnection(this, frame, spec.transactionsPerConnection());
      }
      all.add(c);
    }
    long timeoutNanos = spec.timeout().toNanos();
    timeoutTimer = vertx.setPeriodic(Math.max(10, Math.min(250, spec.timeout().toMillis() / 4)), id -> {
      long now = System.nanoTime();
      for (BenchConnection c : all) {
        c.checkTimeout(now, timeoutNanos);
      }
    });
    if (spec.openLoop()) {
      ticker = ((ContextInternal) context).nettyEventLoop().scheduleAtFixedRate(() -> {
        long now = System.nanoTime();
        for (BenchConnection c : all) {
          ((OpenLoopConnection) c).tick(now);
        }
      }, TICK_MICROS, TICK_MICROS, TimeUnit.MICROSECONDS);
    }
    all.forEach(BenchConnection::connect);
    return Future.succeededFuture();
  }

  void later(long millis, Runnable action) {
    vertx.setTimer(millis, id -> action.run());
  }

  @Override
  public Future<?> stop() {
    vertx.cancelTimer(timeoutTimer);
    if (ticker != null) {
      ticker.cancel(false);
    }
    all.forEach(BenchConnection::stop);
    return client.close();
  }
}
