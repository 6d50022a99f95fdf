package io.portshare.rpc.netsocket;

import io.portshare.rpc.RpcMetrics;
import io.portshare.runtime.NettyAccess;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetSocket;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The Vert.x engine's connection on a clock a test moves: one {@link EchoConnection} on a stand-in
 * {@link NetSocket} whose write of an echo takes a known time, for {@code FrameLatencyOnVertxTest}.
 */
public final class KnownClockEcho {

  private KnownClockEcho() {
  }

  /**
   * Feeds {@code frame} to one connection in one read, its bytes reached as {@code bufferBytes} does;
   * handing each echo to the socket takes {@code writeNanos} of the connection's clock. Returns the
   * bytes written back.
   */
  public static byte[] oneRead(NettyAccess.BufferBytes bufferBytes, RpcMetrics metrics, byte[] frame,
      long writeNanos) {
    AtomicLong nanos = new AtomicLong(1_000_000_000L);
    List<Handler<Buffer>> reader = new ArrayList<>();
    Buffer written = Buffer.buffer();
    NetSocket socket = (NetSocket) Proxy.newProxyInstance(NetSocket.class.getClassLoader(),
        new Class<?>[] {NetSocket.class}, (proxy, method, args) -> {
          switch (method.getName()) {
            case "handler" -> {
              @SuppressWarnings("unchecked")
              Handler<Buffer> h = (Handler<Buffer>) args[0];
              reader.add(h);
            }
            case "write" -> {
              nanos.addAndGet(writeNanos);
              written.appendBuffer((Buffer) args[0]);
              return Future.succeededFuture();
            }
            default -> {
              // no other call matters here
            }
          }
          Class<?> type = method.getReturnType();
          if (type == boolean.class) {
            return false;
          }
          if (type.isInstance(proxy)) {
            return proxy;
          }
          return null;
        });
    new EchoConnection(null, socket, bufferBytes, 1024, metrics, 0, 0, nanos::get).start();
    reader.get(0).handle(Buffer.buffer(frame));
    return written.getBytes();
  }
}
