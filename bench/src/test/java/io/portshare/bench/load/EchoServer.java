package io.portshare.bench.load;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetServerOptions;
import io.vertx.core.parsetools.RecordParser;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A small length-prefixed echo server for the generator's tests, on port 0, that counts the
 * connections it accepted and the frames it answered. With {@code corruptEvery = n > 0} it flips
 * one payload byte of every n-th reply, which the generator must catch.
 */
final class EchoServer implements AutoCloseable {

  private final Vertx vertx = Vertx.vertx();
  private final NetServer server;
  private final AtomicLong connections = new AtomicLong();
  private final AtomicLong frames = new AtomicLong();
  private int replies;

  EchoServer(int corruptEvery) throws Exception {
    server = vertx.createNetServer(new NetServerOptions().setPort(0).setHost("127.0.0.1"))
        .connectHandler(socket -> {
          connections.incrementAndGet();
          RecordParser parser = RecordParser.newFixed(4);
          int[] length = {-1};
          parser.handler(chunk -> {
            if (length[0] < 0) {
              length[0] = chunk.getInt(0);
              if (length[0] > 0) {
                parser.fixedSizeMode(length[0]);
                return;
              }
              chunk = Buffer.buffer();
            }
            Buffer reply = Buffer.buffer(4 + chunk.length()).appendInt(chunk.length()).appendBuffer(chunk);
            if (corruptEvery > 0 && ++replies % corruptEvery == 0 && chunk.length() > 0) {
              int at = 4 + chunk.length() / 2;
              reply.setByte(at, (byte) (reply.getByte(at) ^ 0x01));
            }
            frames.incrementAndGet();
            socket.write(reply);
            length[0] = -1;
            parser.fixedSizeMode(4);
          });
          socket.handler(parser);
        });
    server.listen().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  int port() {
    return server.actualPort();
  }

  long connections() {
    return connections.get();
  }

  long frames() {
    return frames.get();
  }

  @Override
  public void close() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }
}
