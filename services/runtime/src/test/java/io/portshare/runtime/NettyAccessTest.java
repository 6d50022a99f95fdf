package io.portshare.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpRequest;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
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

    await(vertx.createNetClient().connect(port, "127.0.0.1")).write("ping");

    assertThat(seenFirst.get(10, TimeUnit.SECONDS)).isEqualTo("ping");
    assertThat(vertxGot.get(10, TimeUnit.SECONDS)).isEqualTo("ping");
  }

  @Test
  void aHandlerAddedBeforeVertxOnAnHttpConnectionSeesDecodedRequests(Vertx vertx) throws Exception {
    CompletableFuture<String> seenUri = new CompletableFuture<>();
    HttpServer server = vertx.createHttpServer().connectionHandler(conn -> {
      ChannelHandlerContext vertxHandler = NettyAccess.handlerContext(conn);
      vertxHandler.pipeline().addBefore(vertxHandler.name(), "first", new ChannelInboundHandlerAdapter() {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
          if (msg instanceof HttpRequest req) {
            seenUri.complete(req.uri());
          }
          ctx.fireChannelRead(msg);
        }
      });
    }).requestHandler(req -> req.response().end("ok"));
    int port = await(server.listen(0, "127.0.0.1")).actualPort();

    String body = await(vertx.createHttpClient().request(HttpMethod.GET, port, "127.0.0.1", "/x")
        .compose(req -> req.send()).compose(res -> res.body())).toString();

    assertThat(seenUri.get(10, TimeUnit.SECONDS)).isEqualTo("/x");
    assertThat(body).isEqualTo("ok");
  }

  @Test
  void aBufferIsTheByteBufNotACopy() {
    ByteBuf bytes = Unpooled.directBuffer(4).writeBytes(new byte[] {1, 2, 3, 4});
    Buffer buffer = NettyAccess.buffer(bytes);

    bytes.setByte(0, 9);

    assertThat(buffer.length()).isEqualTo(4);
    assertThat(buffer.getByte(0)).isEqualTo((byte) 9);
    bytes.release();
  }

  private static <T> T await(io.vertx.core.Future<T> f) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }
}
