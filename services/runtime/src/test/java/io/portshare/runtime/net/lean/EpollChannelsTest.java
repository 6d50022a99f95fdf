package io.portshare.runtime.net.lean;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFactory;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.portshare.runtime.net.AcceptsPerTurn;
import java.io.DataInputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The runtime's epoll channels ({@link EpollListener}, {@link AcceptedEpollChannel}) on its event
 * loop handler ({@link CoalescingEpollIoHandler}), over real sockets: a connection is served and
 * closed from either end, many times over on one loop (a closed socket's descriptor number comes
 * back at once from accept), a write the socket cannot take at once finishes once it drains, and
 * the addresses the channel reports without asking the kernel are the socket's.
 */
class EpollChannelsTest {

  private static MultiThreadIoEventLoopGroup loop;

  @BeforeAll
  static void start() {
    loop = new MultiThreadIoEventLoopGroup(1, CoalescingEpollIoHandler.factory(EpollIoHandler.newFactory()));
  }

  @AfterAll
  static void stop() {
    loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
  }

  private static Channel echoServer(Consumer<Channel> accepted, boolean serverCloses) throws Exception {
    return echoServer(accepted, serverCloses, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
  }

  private static Channel echoServer(Consumer<Channel> accepted, boolean serverCloses, InetSocketAddress bind)
      throws Exception {
    return new ServerBootstrap().group(loop).channelFactory((ChannelFactory<ServerChannel>) EpollListener::new)
        .option(ChannelOption.RCVBUF_ALLOCATOR, AcceptsPerTurn.allocator())
        .childOption(ChannelOption.SO_KEEPALIVE, true)
        .childHandler(new ChannelInitializer<>() {
          @Override
          protected void initChannel(Channel ch) {
            accepted.accept(ch);
            ch.pipeline().addLast(new Echo(serverCloses));
          }
        })
        .bind(bind).sync().channel();
  }

  @Test
  void servesOneExchangePerConnectionManyTimesOverClosedFromEitherEnd() throws Exception {
    for (boolean serverCloses : new boolean[] {false, true}) {
      Channel listener = echoServer(ch -> {}, serverCloses);
      int port = ((InetSocketAddress) listener.localAddress()).getPort();
      byte[] request = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef".getBytes();
      for (int i = 0; i < 500; i++) {
        try (Socket client = new Socket(InetAddress.getLoopbackAddress(), port)) {
          client.setSoTimeout(10_000);
          client.getOutputStream().write(request);
          byte[] answer = new byte[request.length];
          new DataInputStream(client.getInputStream()).readFully(answer);
          assertThat(answer).isEqualTo(request);
          if (serverCloses) {
            assertThat(client.getInputStream().read()).as("end of stream").isEqualTo(-1);
          }
        }
      }
      listener.close().sync();
    }
  }

  @Test
  void aWriteTheSocketCannotTakeAtOnceFinishes() throws Exception {
    Channel listener = echoServer(ch -> {}, false);
    int port = ((InetSocketAddress) listener.localAddress()).getPort();
    byte[] sent = new byte[16 << 20];
    Arrays.fill(sent, (byte) 'x');
    try (Socket client = new Socket(InetAddress.getLoopbackAddress(), port)) {
      client.setSoTimeout(30_000);
      CompletableFuture<Void> writing = CompletableFuture.runAsync(() -> {
        try {
          OutputStream out = client.getOutputStream();
          out.write(sent);
          out.flush();
        } catch (Exception e) {
          throw new RuntimeException(e);
        }
      });
      // The client reads only after a pause: by then the server's socket is full, and its loop waits for it to drain.
      Thread.sleep(200);
      InputStream in = client.getInputStream();
      byte[] received = new byte[sent.length];
      new DataInputStream(in).readFully(received);
      writing.get(30, TimeUnit.SECONDS);
      assertThat(received).isEqualTo(sent);
    }
    listener.close().sync();
  }

  @Test
  void reportsTheSocketsOwnAddressesAndOptions() throws Exception {
    AtomicReference<Channel> accepted = new AtomicReference<>();
    Channel listener = echoServer(accepted::set, false);
    int port = ((InetSocketAddress) listener.localAddress()).getPort();
    try (Socket client = new Socket(InetAddress.getLoopbackAddress(), port)) {
      client.getOutputStream().write(1);
      assertThat(client.getInputStream().read()).isEqualTo(1);
      SocketChannel ch = (SocketChannel) accepted.get();
      assertThat(ch.localAddress()).isEqualTo(client.getRemoteSocketAddress());
      assertThat(ch.remoteAddress()).isEqualTo(client.getLocalSocketAddress());
      assertThat(ch.parent()).isSameAs(listener);
      assertThat(ch.config().isTcpNoDelay()).isTrue();
      assertThat(ch.config().isKeepAlive()).isTrue();
      assertThat(ch.config().getSoLinger()).isEqualTo(-1);
    }
    listener.close().sync();
  }

  @Test
  void onAWildcardListenerAsksTheSocketForItsLocalAddressWhenAsked() throws Exception {
    AtomicReference<Channel> accepted = new AtomicReference<>();
    Channel listener = echoServer(accepted::set, false, new InetSocketAddress(0));
    int port = ((InetSocketAddress) listener.localAddress()).getPort();
    try (Socket client = new Socket(InetAddress.getLoopbackAddress(), port)) {
      client.getOutputStream().write(1);
      assertThat(client.getInputStream().read()).isEqualTo(1);
      InetSocketAddress local = ((SocketChannel) accepted.get()).localAddress();
      assertThat(local.getPort()).isEqualTo(port);
      assertThat(local.getAddress().isLoopbackAddress()).as("loopback: %s", local).isTrue();
    }
    listener.close().sync();
  }

  /** Writes back what it reads; closes after the first answer when {@code closes}. */
  private static final class Echo extends ChannelInboundHandlerAdapter {
    private final boolean closes;

    Echo(boolean closes) {
      this.closes = closes;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      ByteBuf data = (ByteBuf) msg;
      if (closes && data.readableBytes() >= 64) {
        ctx.writeAndFlush(data).addListener(f -> ctx.close());
      } else {
        ctx.writeAndFlush(data);
      }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      ctx.close();
    }
  }
}
