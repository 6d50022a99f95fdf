package io.portshare.runtime.net;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.uring.IoUring;
import io.netty.channel.uring.IoUringIoHandler;
import io.netty.channel.uring.IoUringServerSocketChannel;
import io.portshare.kit.Ci;
import io.portshare.kit.LogCapture;
import io.portshare.runtime.IoUringOrFallback;
import io.portshare.runtime.config.TransportSetting;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

/**
 * A listener on one event loop of a transport (epoll, io_uring or nio) that takes nothing until its
 * auto-read is turned on, so that connections wait in its accept queue for certain; and the clients
 * connected to it. Closing closes the clients and the loop.
 */
final class QueuedListener implements AutoCloseable {

  private final EventLoopGroup group;
  private final Class<? extends ServerChannel> listenerClass;
  private final List<Socket> clients = new ArrayList<>();
  private Channel listener;

  private QueuedListener(IoHandlerFactory io, Class<? extends ServerChannel> listenerClass) {
    this.group = new MultiThreadIoEventLoopGroup(1, io);
    this.listenerClass = listenerClass;
  }

  /**
   * The transport by name. Epoll missing skips the test (fails it in CI). Where the kernel refuses
   * io_uring, the runtime is checked to choose epoll for it, with one warning, and the listener is
   * the epoll one the service would run on.
   */
  static QueuedListener on(String transport) {
    return switch (transport) {
      case "epoll" -> {
        Ci.require(Epoll.isAvailable(), "needs the native epoll transport (Linux)");
        yield new QueuedListener(EpollIoHandler.newFactory(), EpollServerSocketChannel.class);
      }
      case "io_uring" -> {
        if (IoUring.isAvailable()) {
          yield new QueuedListener(IoUringIoHandler.newFactory(), IoUringServerSocketChannel.class);
        }
        try (LogCapture log = LogCapture.attach()) {
          assertThat(TransportChoice.name(TransportChoice.choose(TransportSetting.IO_URING).transport())).isEqualTo(IoUringOrFallback.transport());
          IoUringOrFallback.checkWarnings(log.warningsAndErrors());
        }
        yield on("epoll");
      }
      default -> new QueuedListener(NioIoHandler.newFactory(), NioServerSocketChannel.class);
    };
  }

  /** Binds the listener on loopback, reading off; {@code configure} adds the test's handlers and options. */
  Channel listen(UnaryOperator<ServerBootstrap> configure) {
    ServerBootstrap b = new ServerBootstrap().group(group).channel(listenerClass).option(ChannelOption.AUTO_READ, false);
    listener = configure.apply(b).bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
        .syncUninterruptibly().channel();
    return listener;
  }

  /** Connects {@code n} clients to the listener; each sends the byte {@code x}. */
  void connect(int n) throws IOException {
    int port = ((InetSocketAddress) listener.localAddress()).getPort();
    for (int i = 0; i < n; i++) {
      Socket s = new Socket();
      clients.add(s);
      s.setSoTimeout(5000);
      s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 10_000);
      s.getOutputStream().write('x');
    }
  }

  List<Socket> clients() {
    return clients;
  }

  @Override
  public void close() throws IOException {
    for (Socket s : clients) {
      s.close();
    }
    group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
  }
}
