package io.portshare.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.vertx.core.Vertx;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetServer;
import io.vertx.junit5.VertxExtension;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** A handler a service adds through the runtime's door sees a real connection's traffic first. */
@ExtendWith(VertxExtension.class)
class NettyAccessTest {

  @Test
  void aHandlerAddedBeforeVertxOnATcpConnectionSeesItsBytesFirst(Vertx vertx) throws Exception {
    CompletableFuture<String> seenFirst = new CompletableFuture<>();
    CompletableFuture<String> vertxGot = new CompletableFuture<>();
    NetServer server = vertx.createNetServer().connectHandler(socket -> {
      ChannelHandlerContext vertxHandler = NettyAccess.handlerContext(socket);
      vertxHandler.pipeline().addBefore(vertxHandler.name(), "first", new ChannelInboundHandlerAdapter() {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
          seenFirst.complete(((ByteBuf) msg).toString(StandardCharsets.US_ASCII));
          ctx.fireChannelRead(msg);
        }
      });
      socket.handler(b -> vertxGot.complete(b.toString()));
    });
    int port = await(server.listen(0, "127.0.0.1")).actualPort();

    NetClient client = vertx.createNetClient(); // held: Vert.x closes an unreferenced client's connections
    await(client.connect(port, "127.0.0.1")).write("ping");

    assertThat(seenFirst.get(10, TimeUnit.SECONDS)).isEqualTo("ping");
    assertThat(vertxGot.get(10, TimeUnit.SECONDS)).isEqualTo("ping");
    client.close();
  }

  private static <T> T await(io.vertx.core.Future<T> f) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }
}
