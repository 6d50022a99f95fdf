package io.portshare.rpc;

import io.netty.channel.ChannelHandlerContext;
import io.portshare.runtime.NettyAccess;
import io.portshare.runtime.ServiceVerticle;
import io.vertx.core.Future;
import io.vertx.core.net.NetServerOptions;
import io.vertx.core.net.NetSocket;
import java.util.concurrent.TimeUnit;

/** One instance of the RPC echo service: a NetServer on the shared port, on this event loop. */
public final class EchoVerticle extends ServiceVerticle {

  /** The meters connections count in: warm-up ones before ready, then {@link #served}. */
  private RpcMetrics metrics;
  private RpcMetrics served;
  private int maxPayload;

  @Override
  public Future<?> start() {
    served = new RpcMetrics(service.registry(), Integer.toString(service.instance()));
    metrics = service.warmingUp() ? new RpcMetrics() : served;
    RpcSettings settings = RpcSettings.of(service.settings());
    maxPayload = settings.maxFrame();
    long idleMillis = settings.idleTimeout().toMillis();
    NetServerOptions options = service.netServerOptions()
        .setRegisterWriteHandler(false)
        .setIdleTimeout((int) Math.min(idleMillis, Integer.MAX_VALUE))
        .setIdleTimeoutUnit(TimeUnit.MILLISECONDS);
    return service.listen(vertx.createNetServer(options).connectHandler(this::accept));
  }

  @Override
  protected void warmedUp() {
    metrics = served;
  }

  private void accept(NetSocket socket) {
    RpcMetrics counted = metrics;
    EchoHandler echo = new EchoHandler(maxPayload, counted);
    // The echo handler takes the bytes before Vert.x's handler sees them and handles errors
    // itself; this one only keeps a stray exception from being logged per connection.
    socket.exceptionHandler(t -> counted.otherErrors++);
    socket.shutdownHandler(v -> echo.startDrain());
    ChannelHandlerContext vertxHandler = NettyAccess.handlerContext(socket);
    vertxHandler.pipeline().addBefore(vertxHandler.name(), "rpc-echo", echo);
    long lifetime = service.connectionLifetime().toNanos();
    if (lifetime > 0) {
      echo.drainAfter(lifetime);
    }
  }
}
