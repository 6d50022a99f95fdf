package io.portshare.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.uring.IoUring;
import io.netty.channel.uring.IoUringIoHandler;
import io.netty.channel.uring.IoUringServerSocketChannel;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Connections that wait in a listener's accept queue when a drain closes it: closing at once
 * resets them; {@link Listeners#closeAll} accepts them first. The listener starts with reading
 * off, so connections queue for certain.
 */
class ListenersTest {

  private EventLoopGroup group;
  private Class<? extends ServerChannel> listenerClass;
  private final List<Socket> clients = new ArrayList<>();

  /** The two transports whose listeners have a Linux fd to read the queue from. */
  private void on(String transport) {
    if (transport.equals("epoll")) {
      assumeTrue(Epoll.isAvailable(), "needs the native epoll transport (Linux)");
      group = new MultiThreadIoEventLoopGroup(1, EpollIoHandler.newFactory());
      listenerClass = EpollServerSocketChannel.class;
    } else {
      assumeTrue(IoUring.isAvailable(), "needs io_uring allowed here");
      group = new MultiThreadIoEventLoopGroup(1, IoUringIoHandler.newFactory());
      listenerClass = IoUringServerSocketChannel.class;
    }
  }

  @AfterEach
  void close() throws IOException {
    for (Socket s : clients) {
      s.close();
    }
    if (group != null) {
      group.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
    }
  }

  @ParameterizedTest(name = "on {0}")
  @ValueSource(strings = {"epoll", "io_uring"})
  void queuedConnectionsAreAcceptedAndServedBeforeTheListenerCloses(String transport) throws Exception {
    on(transport);
    Listeners listeners = new Listeners();
    Channel listener = queueingEchoListener(listeners);
    connect(listener, 3);
    await().atMost(Duration.ofSeconds(5)).until(() -> Listeners.waiting(listener) == 3);

    listener.config().setAutoRead(true);
    listeners.closeAll(Duration.ofSeconds(2));

    assertThat(listener.isOpen()).isFalse();
    for (Socket s : clients) {
      assertThat(echo(s)).as("connection queued at the close").isEqualTo('x');
    }
  }

  @ParameterizedTest(name = "on {0}")
  @ValueSource(strings = {"epoll", "io_uring"})
  void closingWithoutWaitingResetsWhatIsQueued(String transport) throws Exception {
    on(transport);
    Listeners listeners = new Listeners();
    Channel listener = queueingEchoListener(listeners);
    connect(listener, 2);
    await().atMost(Duration.ofSeconds(5)).until(() -> Listeners.waiting(listener) == 2);

    listeners.closeAll(Duration.ZERO);

    for (Socket s : clients) {
      assertThat(echo(s)).as("connection queued at the close").isEqualTo(-1);
    }
  }

  @ParameterizedTest(name = "on {0}")
  @ValueSource(strings = {"epoll", "io_uring"})
  void anOpenListenerWithNothingQueuedWaitsForNothing(String transport) throws Exception {
    on(transport);
    Listeners listeners = new Listeners();
    Channel listener = queueingEchoListener(listeners);
    listener.config().setAutoRead(true);
    long t0 = System.nanoTime();
    listeners.closeAll(Duration.ofSeconds(10));
    assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(2));
    assertThat(Listeners.waiting(listener)).isZero();
  }

  /** A listener of the kind the runtime makes, not accepting until told, whose connections echo. */
  private Channel queueingEchoListener(Listeners listeners) {
    Channel ch = new ServerBootstrap()
        .group(group)
        .channel(listenerClass)
        .option(ChannelOption.AUTO_READ, false)
        .childHandler(new Echo())
        .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).syncUninterruptibly().channel();
    listeners.add(ch);
    return ch;
  }

  @ChannelHandler.Sharable
  private static final class Echo extends ChannelInboundHandlerAdapter {
    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      ctx.writeAndFlush((ByteBuf) msg);
    }
  }

  private void connect(Channel listener, int n) throws IOException {
    int port = ((InetSocketAddress) listener.localAddress()).getPort();
    for (int i = 0; i < n; i++) {
      Socket s = new Socket();
      s.setSoTimeout(5000);
      s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 5000);
      s.getOutputStream().write('x');
      clients.add(s);
    }
  }

  /** The echoed byte, or -1 when the connection was reset or closed. */
  private static int echo(Socket s) {
    try {
      InputStream in = s.getInputStream();
      return in.read();
    } catch (IOException e) {
      return -1;
    }
  }
}
