package io.portshare.runtime.net.lean;

import io.netty.channel.AdaptiveRecvByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.RecvByteBufAllocator;
import io.netty.channel.epoll.AbstractEpollServerChannel;
import io.netty.channel.epoll.LinuxSocket;
import io.netty.channel.socket.ServerSocketChannel;
import io.netty.channel.unix.NativeInetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;

/**
 * An epoll listening socket whose accepted connections are {@link AcceptedEpollChannel}s: Netty's
 * {@code EpollServerSocketChannel} is final and makes its own {@code EpollSocketChannel}, so this
 * is built on the public {@link AbstractEpollServerChannel}. It serves the listener options Vert.x
 * and the runtime set ({@link #serves}); a server asking for another gets Netty's own channels.
 */
final class EpollListener extends AbstractEpollServerChannel implements ServerSocketChannel {

  private final ListenerConfig config = new ListenerConfig(this);
  /** One read-size allocator for all accepted channels (each keeps its own guess in its handle). */
  private final RecvByteBufAllocator childReads = new AdaptiveRecvByteBufAllocator();
  /** The send buffer size accepted sockets start with; 0 until the first one is asked. */
  private volatile int childSendBuffer;

  /** A new socket, bound and listening once Vert.x binds it. */
  EpollListener() {
    super(LinuxSocket.newSocketStream(), false);
  }

  /** A listening socket this process was given ({@link InheritedListener}). */
  EpollListener(int fd) {
    super(LinuxSocket.newSocket(fd));
  }

  /** True when this listener serves option {@code option} set to {@code value} as Netty's own would. */
  static boolean serves(ChannelOption<?> option, Object value) {
    return ListenerConfig.SOCKET.contains(option) || AcceptedEpollChannel.GENERIC.contains(option);
  }

  @Override
  protected void doBind(SocketAddress localAddress) throws Exception {
    super.doBind(localAddress);
    socket.listen(config.getBacklog());
    active = true;
  }

  @Override
  protected Channel newChildChannel(int fd, byte[] address, int offset, int len) {
    return new AcceptedEpollChannel(this, fd, NativeInetAddress.address(address, offset, len));
  }

  /** What an accepted socket's local address is, when this listener's tells: bound to one address. */
  InetSocketAddress childLocalAddress() {
    InetSocketAddress bound = localAddress();
    return bound != null && !bound.getAddress().isAnyLocalAddress() ? bound : null;
  }

  RecvByteBufAllocator childReads() {
    return childReads;
  }

  /** The send buffer size of the first accepted socket, asked of {@code socket} if it is the first. */
  int childSendBuffer(LinuxSocket socket) {
    int size = childSendBuffer;
    if (size == 0) {
      size = LeanChannelConfig.socketCall(socket::getSendBufferSize);
      childSendBuffer = size;
    }
    return size;
  }

  @Override
  public InetSocketAddress localAddress() {
    return (InetSocketAddress) super.localAddress();
  }

  @Override
  public InetSocketAddress remoteAddress() {
    return null;
  }

  @Override
  public ListenerConfig config() {
    return config;
  }
}
