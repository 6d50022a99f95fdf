package io.portshare.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * An epoll listener takes every connection waiting in its queue in one turn of its event loop,
 * where Netty 4.2's own allocator takes one per turn (so a loop that also serves connections leaves
 * the rest queued for a turn over all of them each). NIO's listener already takes them all.
 */
class AcceptsPerTurnTest {

  private static final int QUEUED = 10;

  private EventLoopGroup group;
  private final List<Socket> clients = new ArrayList<>();

  @AfterEach
  void close() throws IOException {
    for (Socket s : clients) {
      s.close();
    }
    if (group != null) {
      group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }
  }

  @ParameterizedTest(name = "on {0}, runtime allocator {1}: at most {2} accepted in one turn")
  @CsvSource({"epoll, true, 10", "epoll, false, 1", "nio, false, 10"})
  void oneTurnTakesTheWholeQueue(String transport, boolean runtimeAllocator, int mostInOneTurn) throws Exception {
    Class<? extends ServerChannel> listenerClass;
    if (transport.equals("epoll")) {
      assumeTrue(Epoll.isAvailable(), "needs the native epoll transport (Linux)");
      group = new MultiThreadIoEventLoopGroup(1, EpollIoHandler.newFactory());
      listenerClass = EpollServerSocketChannel.class;
    } else {
      group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
      listenerClass = NioServerSocketChannel.class;
    }
    TurnCounter turns = new TurnCounter();
    ServerBootstrap b = new ServerBootstrap()
        .group(group)
        .channel(listenerClass)
        .option(ChannelOption.AUTO_READ, false)
        .handler(turns)
        .childHandler(new ChannelInitializer<>() {
          @Override
          protected void initChannel(Channel ch) {}
        });
    if (runtimeAllocator) {
      b.option(ChannelOption.RCVBUF_ALLOCATOR, new AcceptsPerTurn());
    }
    Channel listener = b.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).syncUninterruptibly()
        .channel();
    int port = ((InetSocketAddress) listener.localAddress()).getPort();
    for (int i = 0; i < QUEUED; i++) {
      Socket s = new Socket();
      s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 10_000);
      clients.add(s);
    }
    if (transport.equals("epoll")) {
      await().atMost(Duration.ofSeconds(5)).until(() -> Listeners.waiting(listener) == QUEUED);
    }

    listener.config().setAutoRead(true);

    await().atMost(Duration.ofSeconds(10)).until(() -> turns.accepted.get() == QUEUED);
    assertThat(turns.most.get()).isEqualTo(mostInOneTurn);
    listener.close().syncUninterruptibly();
  }

  /** On the listener: counts the connections each turn (one read burst, then read-complete) accepts. */
  private static final class TurnCounter extends ChannelInboundHandlerAdapter {
    final AtomicInteger accepted = new AtomicInteger();
    final AtomicInteger most = new AtomicInteger();
    private int thisTurn;

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      thisTurn++;
      accepted.incrementAndGet();
      ctx.fireChannelRead(msg);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
      most.accumulateAndGet(thisTurn, Math::max);
      thisTurn = 0;
      ctx.fireChannelReadComplete();
    }
  }
}
