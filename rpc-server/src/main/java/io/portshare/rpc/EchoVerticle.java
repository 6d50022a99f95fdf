package io.portshare.rpc;

import io.netty.channel.Channel;
import io.netty.handler.timeout.IdleStateHandler;
import io.portshare.runtime.ServiceVerticle;
import io.vertx.core.Future;
import java.util.concurrent.TimeUnit;

/**
 * One instance of the RPC echo service: a listener on the shared port whose connections are served
 * by {@link EchoHandler} on a Netty pipeline of their own, on this event loop. No Vert.x
 * {@code NetSocket} is made per connection: the echo never wrote through one, and it was half of
 * the bytes allocated per connection (see rpc-server/README.md).
 */
public final class EchoVerticle extends ServiceVerticle {

  /** The meters connections count in: warm-up ones before ready, then {@link #served}. */
  private RpcMetrics metrics;
  private RpcMetrics served;
  private int maxPayload;
  private long idleMillis;

  @Override
  public Future<?> start() {
    served = new RpcMetrics(service.registry(), Integer.toString(service.instance()));
    metrics = service.warmingUp() ? new RpcMetrics() : served;
    RpcSettings settings = RpcSettings.of(service.settings());
    maxPayload = settings.maxFrame();
    idleMillis = settings.idleTimeout().toMillis();
    return service.listen(service.netServerOptions(), this::initConnection);
  }

  @Override
  protected void warmedUp() {
    metrics = served;
  }

  private void initConnection(Channel connection) {
    if (idleMillis > 0) {
      connection.pipeline().addLast("idle", new IdleStateHandler(0, 0, idleMillis, TimeUnit.MILLISECONDS));
    }
    EchoHandler echo = new EchoHandler(maxPayload, metrics);
    connection.pipeline().addLast("rpc-echo", echo);
    long lifetime = service.connectionLifetime().toNanos();
    if (lifetime > 0) {
      echo.drainAfter(lifetime);
    }
  }
}
