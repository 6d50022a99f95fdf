package io.portshare.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.util.ReferenceCountUtil;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetServer;
import io.vertx.junit5.VertxExtension;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A handler a service adds through the runtime's door sees a real connection's traffic first; the
 * HTTP/1.x decoder it offers refuses what Netty's lets through in HTTP/1.0.
 */
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

    // Held until the answer is in: Vert.x closes the pool of a client nothing references any more.
    HttpClient client = vertx.createHttpClient();
    String body = await(client.request(HttpMethod.GET, port, "127.0.0.1", "/x")
        .compose(req -> req.send()).compose(res -> res.body())).toString();
    client.close();

    assertThat(seenUri.get(10, TimeUnit.SECONDS)).isEqualTo("/x");
    assertThat(body).isEqualTo("ok");
  }

  @Test
  void theDecoderRefusesASecondContentLengthInHttp10AsNettyDoesIn11() {
    String[] refused = {
        "POST / HTTP/1.0\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab",
        "GET / HTTP/1.0\r\ncontent-length: 0\r\nContent-Length: 0\r\n\r\n",
        "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab"};
    for (String request : refused) {
      EmbeddedChannel channel = new EmbeddedChannel(NettyAccess.httpRequestDecoder(new HttpServerOptions()));
      channel.writeInbound(Unpooled.copiedBuffer(request, StandardCharsets.ISO_8859_1));
      HttpRequest head = channel.readInbound();
      assertThat(head.decoderResult().isFailure()).as(request).isTrue();
      channel.finishAndReleaseAll();
    }
  }

  @Test
  void aHeadTooBigIsTooBigFirstWhateverItsLengths() {
    EmbeddedChannel channel = new EmbeddedChannel(NettyAccess.httpRequestDecoder(new HttpServerOptions()));
    channel.writeInbound(Unpooled.copiedBuffer("GET / HTTP/1.0\r\nContent-Length: 0\r\nContent-Length: 5\r\nX: "
        + "x".repeat(9000) + "\r\n\r\n", StandardCharsets.ISO_8859_1));
    HttpRequest head = channel.readInbound();
    assertThat(head.decoderResult().cause()).isInstanceOf(TooLongHttpHeaderException.class);
    channel.finishAndReleaseAll();
  }

  @Test
  void theDecoderPassesOneContentLengthPerHeadAndStaysVertxs() {
    EmbeddedChannel channel = new EmbeddedChannel(NettyAccess.httpRequestDecoder(new HttpServerOptions()));
    channel.writeInbound(Unpooled.copiedBuffer("POST / HTTP/1.0\r\nContent-Length: 1\r\n\r\nx"
        + "POST / HTTP/1.0\r\nContent-Length: 1\r\n\r\ny", StandardCharsets.ISO_8859_1));
    List<HttpRequest> heads = new ArrayList<>();
    for (Object m; (m = channel.readInbound()) != null; ) {
      if (m instanceof HttpRequest req) {
        heads.add(req);
      }
      ReferenceCountUtil.release(m);
    }
    assertThat(heads).hasSize(2).allMatch(h -> h.decoderResult().isSuccess());
    // Vert.x's own headers, which its request handler reads without an adaptor.
    assertThat(heads.get(0).headers()).isInstanceOf(MultiMap.class);
    channel.finishAndReleaseAll();
  }

  @Test
  void onARealConnectionTheDecoderReplacesVertxsAndVertxAnswers400(Vertx vertx) throws Exception {
    HttpServerOptions options = new HttpServerOptions().setHttp2ClearTextEnabled(false);
    HttpServer server = vertx.createHttpServer(options)
        .connectionHandler(conn -> NettyAccess.refuseRepeatedContentLength(conn, options))
        .requestHandler(req -> req.response().end("ok"));
    int port = await(server.listen(0, "127.0.0.1")).actualPort();

    assertThat(exchange(port, "GET / HTTP/1.0\r\nContent-Length: 0\r\n\r\n")).startsWith("HTTP/1.0 200").endsWith("ok");
    assertThat(exchange(port, "GET / HTTP/1.0\r\nContent-Length: 0\r\nContent-Length: 5\r\n\r\n"))
        .matches("HTTP/1\\.[01] 400 (?s).*");
  }

  /** Sends one request and reads until the server closes (HTTP/1.0 without keep-alive, or a refusal). */
  private static String exchange(int port, String request) throws Exception {
    try (Socket socket = new Socket("127.0.0.1", port)) {
      socket.setSoTimeout(10_000);
      socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
      return new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
    }
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
