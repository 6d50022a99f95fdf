package io.portshare.runtime.launch;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.channel.epoll.EpollDomainSocketChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.unix.DomainSocketAddress;
import io.netty.channel.unix.DomainSocketReadMode;
import io.netty.channel.unix.FileDescriptor;
import io.portshare.runtime.UsageException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The child's side of the supervisor's hand-over socket (a Unix socket in a directory only the
 * supervisor's user can enter). A child asks with one byte and the supervisor, which knows it by
 * its pid (SO_PEERCRED), answers: {@link #SOCKETS} sends the child's listening sockets as
 * SCM_RIGHTS messages and closes; {@link #READY} tells it the child serves them now. The same
 * passing of descriptors over a Unix socket as HAProxy's seamless reload and Envoy's hot restart.
 */
final class Handover {

  /** Set by the supervisor for its children: the Unix socket that hands them their listeners. */
  static final String ENV = "PORTSHARE_HANDOVER";
  static final byte SOCKETS = 'S';
  static final byte READY = 'R';
  private static final long TIMEOUT_SECONDS = 30;

  private Handover() {}

  /** The listening sockets the supervisor keeps for this process, as descriptors now its own. */
  static List<Integer> receiveSockets(Path socket) {
    List<Integer> fds = new ArrayList<>();
    ask(socket, SOCKETS, fds);
    if (fds.isEmpty()) {
      throw new UsageException("supervisor " + socket + " handed over no listening socket (is this process one "
          + "it started?)");
    }
    return fds;
  }

  /** Tells the supervisor this process is ready; it then drains the one it replaces. */
  static void reportReady(Path socket) {
    ask(socket, READY, null);
  }

  private static void ask(Path socket, byte request, List<Integer> received) {
    EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, EpollIoHandler.newFactory());
    try {
      Bootstrap b = new Bootstrap().group(group).channel(EpollDomainSocketChannel.class)
          .handler(new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
              if (msg instanceof FileDescriptor && received != null) {
                synchronized (received) {
                  received.add(((FileDescriptor) msg).intValue());
                }
              }
            }
          });
      if (received != null) {
        b.option(EpollChannelOption.DOMAIN_SOCKET_READ_MODE, DomainSocketReadMode.FILE_DESCRIPTORS);
      }
      Channel ch = b.connect(new DomainSocketAddress(socket.toFile())).syncUninterruptibly().channel();
      ch.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {request})).syncUninterruptibly();
      // The supervisor closes once it has answered.
      if (!ch.closeFuture().awaitUninterruptibly(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        ch.close();
        throw new IllegalStateException("supervisor " + socket + " did not answer in " + TIMEOUT_SECONDS + " s");
      }
    } catch (RuntimeException e) {
      if (e instanceof UsageException || e instanceof IllegalStateException) {
        throw e;
      }
      throw new UsageException("cannot reach the supervisor at " + socket + " (from " + ENV + "): " + e);
    } finally {
      group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
    }
  }
}
