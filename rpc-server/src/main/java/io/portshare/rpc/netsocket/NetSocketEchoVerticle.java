package io.portshare.rpc.netsocket;

import io.portshare.rpc.RpcMetrics;
import io.portshare.rpc.RpcSettings;
import io.portshare.runtime.NettyAccess;
import io.portshare.runtime.ServiceVerticle;
import io.vertx.core.Future;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetServerOptions;
import java.util.function.Supplier;

/**
 * One instance of the RPC echo service on Vert.x's own API ({@code --engine vertx}): a
 * {@code NetServer} listened through the runtime, so its listener layer, modes and drain apply,
 * and an {@link EchoConnection} on each {@code NetSocket}.
 */
public final class NetSocketEchoVerticle extends ServiceVerticle {

  /** The meters new connections count in: warm-up ones before ready (ServiceContext.warmUpSplit). */
  private Supplier<RpcMetrics> metrics;

  @Override
  public Future<?> start() {
    metrics = service.warmUpSplit(new RpcMetrics(service.registry(), Integer.toString(service.instance())),
        new RpcMetrics());
    RpcSettings settings = RpcSettings.of(service.settings());
    int maxPayload = settings.maxFrame();
    long idleMillis = settings.idleTimeout().toMillis();
    // --idle-timeout is in these options (the runtime's): Vert.x's idle handler closes a connection that
    // neither read nor finished a write for that long.
    NetServerOptions options = service.netServerOptions();
    NetServer server = vertx.createNetServer(options);
    // --channel lean: decoded in place; netty: from copies, Vert.x's public API only.
    NettyAccess.BufferBytes bufferBytes = service.bufferBytes();
    server.connectHandler(socket -> new EchoConnection(vertx, socket, bufferBytes, maxPayload, metrics.get(),
        idleMillis, service.connectionLifetime().toMillis()).start());
    return service.listen(server);
  }
}
