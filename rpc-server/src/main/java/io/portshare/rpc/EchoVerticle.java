package io.portshare.rpc;

import io.netty.channel.Channel;
import io.portshare.runtime.ServiceContext;
import io.portshare.runtime.ServiceVerticle;
import io.vertx.core.Future;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * One instance of the RPC echo service: a listener on the shared port whose connections are served
 * by {@link EchoHandler} on a Netty pipeline of their own, on this event loop. No Vert.x
 * {@code NetSocket} is made per connection: the echo never wrote through one, and it was half of
 * the bytes allocated per connection (bench/report/ledger/README.md has the A/B).
 */
public final class EchoVerticle extends ServiceVerticle {

  /** The meters new connections count in: warm-up ones before ready (ServiceContext.warmUpSplit). */
  private Supplier<RpcMetrics> metrics;
  private int maxPayload;
  private long idleMillis;

  @Override
  public Future<?> start() {
    metrics = service.warmUpSplit(new RpcMetrics(service.registry(), Integer.toString(service.instance())),
        new RpcMetrics());
    RpcSettings settings = RpcSettings.of(service.settings());
    maxPayload = settings.maxFrame();
    idleMillis = settings.idleTimeout().toMillis();
    Future<Void> listening = service.listen(service.netServerOptions(), this::initConnection);
    if (idleMillis > 0) {
      // One sweep per event loop, no timer per connection: Netty's IdleStateHandler scheduled a
      // task on every accept and, watching writes, made a promise and a listener for every answer.
      Duration period = ServiceContext.sweepPeriodFor(Duration.ofMillis(idleMillis));
      int sweeps = (int) ((idleMillis + period.toMillis() - 1) / period.toMillis());
      service.sweepConnections(period, connection -> {
        EchoHandler echo = connection.pipeline().get(EchoHandler.class);
        if (echo != null && echo.quietFor(sweeps)) {
          echo.closeIdle();
        }
      });
    }
    return listening;
  }

  private void initConnection(Channel connection) {
    EchoHandler echo = new EchoHandler(maxPayload, metrics.get());
    connection.pipeline().addLast("rpc-echo", echo);
    long lifetime = service.connectionLifetime().toNanos();
    if (lifetime > 0) {
      echo.drainAfter(lifetime);
    }
  }
}
