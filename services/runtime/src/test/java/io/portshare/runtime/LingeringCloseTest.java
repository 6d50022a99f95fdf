package io.portshare.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The lingering close over real sockets: the answer, then FIN, the peer's late bytes read, then the close. */
class LingeringCloseTest {

  private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
  /** Bytes the server read and dropped after it began to close. */
  private final AtomicInteger dropped = new AtomicInteger();
  private final CompletableFuture<Channel> accepted = new CompletableFuture<>();

  @AfterEach
  void stop() {
    group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
  }

  /** A server that answers its first read with "bye" and a lingering close, then drops what comes. */
  private int serve(Duration linger) {
    Channel server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
        .childHandler(new ChannelInitializer<SocketChannel>() {
          @Override
          protected void initChannel(SocketChannel ch) {
            accepted.complete(ch);
            ch.pipeline().addLast(new ChannelInboundHandlerAdapter() {
              private boolean closing;

              @Override
              public void channelRead(ChannelHandlerContext ctx, Object msg) {
                ByteBuf in = (ByteBuf) msg;
                if (closing) {
                  dropped.addAndGet(in.readableBytes());
                } else {
                  closing = true;
                  // As the services do when they refuse a request: reading off, so that the lingering
                  // close itself must turn it back on for the late bytes to be read.
                  ctx.channel().config().setAutoRead(false);
                  LingeringClose.after(ctx, Unpooled.copiedBuffer("bye", StandardCharsets.US_ASCII), linger);
                }
                in.release();
              }
            });
          }
        })
        .bind(new InetSocketAddress("127.0.0.1", 0)).syncUninterruptibly().channel();
    return ((InetSocketAddress) server.localAddress()).getPort();
  }

  /** When the last {@link #answered} connection read the server's FIN (System.nanoTime). */
  private long finAt;

  /** A connection that sent the byte the server answers and lingers on, with that answer read up to FIN. */
  private Socket answered(int port) throws Exception {
    Socket s = new Socket("127.0.0.1", port);
    s.setSoTimeout(10_000);
    s.getOutputStream().write('a');
    assertThat(new String(s.getInputStream().readAllBytes(), StandardCharsets.US_ASCII))
        .as("the answer, then FIN").isEqualTo("bye");
    finAt = System.nanoTime();
    return s;
  }

  @Test
  void theAnswerThenFinThenTheLateBytesAreReadAndTheConnectionClosesWhenTheLingerHasPassed() throws Exception {
    int port = serve(Duration.ofSeconds(2));
    try (Socket s = answered(port)) {
      Channel channel = accepted.get(10, TimeUnit.SECONDS);
      assertThat(channel.isOpen()).as("open for the peer's late bytes").isTrue();

      s.getOutputStream().write(new byte[100]);
      assertThat(channel.closeFuture().await(10, TimeUnit.SECONDS)).as("closed once the linger passed").isTrue();
      // This test is about time: the linger lasts its length from the FIN, neither cut short nor kept open.
      Duration lingered = Duration.ofNanos(System.nanoTime() - finAt);
      assertThat(lingered).as("open after the FIN for the 2 s linger").isGreaterThan(Duration.ofMillis(1800))
          .isLessThan(Duration.ofSeconds(5));
      assertThat(dropped.get()).as("late bytes read, with reading turned back on, not left for a RST")
          .isEqualTo(100);
    }
  }

  @Test
  void aPeerThatClosesEndsTheLingerAtOnce() throws Exception {
    int port = serve(Duration.ofMinutes(10));
    answered(port).close();
    assertThat(accepted.get(10, TimeUnit.SECONDS).closeFuture().await(10, TimeUnit.SECONDS))
        .as("closed when the peer closed, not after ten minutes").isTrue();
  }

  @Test
  void aChannelThatCannotHalfCloseClosesAfterTheAnswer() {
    EmbeddedChannel channel = new EmbeddedChannel(new ChannelInboundHandlerAdapter());
    LingeringClose.after(channel.pipeline().firstContext(), Unpooled.copiedBuffer("bye", StandardCharsets.US_ASCII),
        Duration.ofMinutes(10));
    ByteBuf answer = channel.readOutbound();
    assertThat(answer.toString(StandardCharsets.US_ASCII)).isEqualTo("bye");
    answer.release();
    assertThat(channel.isOpen()).isFalse();
  }
}
