package io.portshare.runtime.launch;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.EpollDomainSocketChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerDomainSocketChannel;
import io.netty.channel.unix.DomainSocketAddress;
import io.netty.channel.unix.FileDescriptor;
import io.netty.util.ReferenceCountUtil;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;
import java.util.function.LongFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The supervisor's side of {@link Handover}: a Unix socket in a fresh directory only this user
 * may enter, answering the supervisor's own children, each known by the pid the kernel vouches for.
 */
final class HandoverServer implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(HandoverServer.class);

  private final Path directory;
  private final Path socket;
  private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, EpollIoHandler.newFactory());
  private final Channel server;

  /**
   * @param socketsOf the descriptors to hand the child with this pid, or null for a stranger
   * @param onReady called with the pid of a child that serves its sockets now
   */
  HandoverServer(LongFunction<List<Integer>> socketsOf, LongConsumer onReady) throws IOException {
    directory = Files.createTempDirectory("portshare-handover",
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    socket = directory.resolve("sockets");
    server = new ServerBootstrap().group(group).channel(EpollServerDomainSocketChannel.class)
        .childHandler(new Answer(socketsOf, onReady))
        .bind(new DomainSocketAddress(socket.toFile())).syncUninterruptibly().channel();
  }

  /** Answers one request byte per connection; holds no state of its own. */
  @ChannelHandler.Sharable
  private static final class Answer extends ChannelInboundHandlerAdapter {
    private final LongFunction<List<Integer>> socketsOf;
    private final LongConsumer onReady;

    Answer(LongFunction<List<Integer>> socketsOf, LongConsumer onReady) {
      this.socketsOf = socketsOf;
      this.onReady = onReady;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      try {
        answer(ctx, ((ByteBuf) msg).readByte(), socketsOf, onReady);
      } finally {
        ReferenceCountUtil.release(msg);
      }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      LOG.warn("hand-over connection failed: {}", cause.toString());
      ctx.close();
    }
  }

  private static void answer(ChannelHandlerContext ctx, byte request, LongFunction<List<Integer>> socketsOf,
      LongConsumer onReady) {
    long pid;
    try {
      pid = ((EpollDomainSocketChannel) ctx.channel()).peerCredentials().pid();
    } catch (IOException e) {
      ctx.close();
      return;
    }
    if (request == Handover.READY) {
      onReady.accept(pid);
      ctx.close();
      return;
    }
    List<Integer> fds = request == Handover.SOCKETS ? socketsOf.apply(pid) : null;
    if (fds == null) {
      LOG.warn("hand-over: process {} is not a child of this supervisor; refused", pid);
      ctx.close();
      return;
    }
    for (int fd : fds) {
      // The kernel dups the descriptor into the child; ours stays open.
      ctx.write(new FileDescriptor(fd));
    }
    ctx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
  }

  /** The path children find in {@link Handover#ENV}. */
  Path path() {
    return socket;
  }

  @Override
  public void close() {
    server.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
    group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
    try {
      Files.deleteIfExists(socket);
      Files.deleteIfExists(directory);
    } catch (IOException e) {
      LOG.warn("could not remove {}: {}", directory, e.toString());
    }
  }
}
