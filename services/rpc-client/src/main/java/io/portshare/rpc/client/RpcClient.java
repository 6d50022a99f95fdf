package io.portshare.rpc.client;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetClientOptions;

/**
 * An asynchronous client of the RPC echo service. Each {@link RpcConnection} sends frames,
 * keeps up to {@link RpcClientOptions#getPipelineDepth()} of them in flight, and checks every
 * answer byte for byte against what it sent.
 *
 * <pre>{@code
 * RpcClient client = RpcClient.create(vertx, new RpcClientOptions().setPipelineDepth(16));
 * client.connect(9090, "127.0.0.1")
 *     .compose(conn -> conn.send(Buffer.buffer("hello")).eventually(conn::close))
 *     .onSuccess(v -> System.out.println("echoed"));
 * }</pre>
 */
public final class RpcClient {

  private final RpcClientOptions options;
  private final NetClient net;

  private RpcClient(Vertx vertx, RpcClientOptions options) {
    this.options = options;
    NetClientOptions netOptions = new NetClientOptions()
        .setTcpNoDelay(options.isTcpNoDelay())
        .setConnectTimeout(options.getConnectTimeoutMillis())
        .setRegisterWriteHandler(false);
    if (options.isResetOnClose()) {
      netOptions.setSoLinger(0);
    }
    this.net = vertx.createNetClient(netOptions);
  }

  public static RpcClient create(Vertx vertx, RpcClientOptions options) {
    return new RpcClient(vertx, options);
  }

  public static RpcClient create(Vertx vertx) {
    return new RpcClient(vertx, new RpcClientOptions());
  }

  public RpcClientOptions options() {
    return options;
  }

  /** Opens a connection; it runs on the event loop of the calling context (or a new one). */
  public Future<RpcConnection> connect(int port, String host) {
    return net.connect(port, host).map(socket -> new RpcConnection(socket, options, this));
  }

  /** Closes every connection this client opened. */
  public Future<Void> close() {
    return net.close();
  }
}
