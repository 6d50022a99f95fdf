package io.portshare.runtime.net.lean;

import io.netty.channel.ChannelOption;
import io.netty.channel.epoll.AbstractEpollStreamChannel;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.channel.epoll.LinuxSocket;
import io.netty.channel.socket.ServerSocketChannel;
import io.netty.channel.socket.SocketChannel;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.Set;

/**
 * A connection accepted by an {@link EpollListener}: Netty's epoll stream channel without the system
 * calls a C server does not make per connection.
 *
 * <p>Netty's {@code EpollSocketChannel} asks each accepted socket for its local address as it is
 * created (getsockname(2)), for its send buffer size (getsockopt(2) {@code SO_SNDBUF}, to bound a
 * gathering write) and, as it closes, for {@code SO_LINGER} (another getsockopt); its registration
 * is taken out of epoll with an {@code EPOLL_CTL_DEL} just before close(2) would drop it anyway.
 * That class is final and its constructors and configuration are package-private, so this channel
 * builds on the public {@link AbstractEpollStreamChannel} instead:
 * <ul>
 *   <li>the local address is asked for only when someone wants it, or is the listener's own when
 *       that is bound to one address;
 *   <li>the gathering-write bound comes from the send buffer size the listener's first connection
 *       had (every socket a listener accepts starts with the same one) unless {@code SO_SNDBUF} is
 *       set;
 *   <li>{@code SO_LINGER} is what the configuration set, never read back, and above 0 is not
 *       served here ({@link #serves}): a lingering close blocks, and Netty's own channel moves it
 *       off the event loop, which a channel outside its package cannot;
 *   <li>close(2) comes before the deregistration: the socket is this process's alone (accept4
 *       made it close-on-exec, nothing duplicates it), so closing it takes it out of epoll, and
 *       Netty's deregistration, finding it closed, makes no {@code EPOLL_CTL_DEL}.
 * </ul>
 * One getsockname(2) remains: Netty's socket object asks whether the socket is IPv6 as it is made,
 * in a constructor no subclass can avoid.
 */
final class AcceptedEpollChannel extends AbstractEpollStreamChannel implements SocketChannel {

  /** Options of Netty's own channel configuration, which this channel's serves as Netty's does. */
  static final Set<ChannelOption<?>> GENERIC = Set.of(ChannelOption.CONNECT_TIMEOUT_MILLIS,
      ChannelOption.MAX_MESSAGES_PER_READ, ChannelOption.MAX_MESSAGES_PER_WRITE, ChannelOption.WRITE_SPIN_COUNT,
      ChannelOption.ALLOCATOR, ChannelOption.RCVBUF_ALLOCATOR, ChannelOption.AUTO_READ, ChannelOption.AUTO_CLOSE,
      ChannelOption.WRITE_BUFFER_HIGH_WATER_MARK, ChannelOption.WRITE_BUFFER_LOW_WATER_MARK,
      ChannelOption.WRITE_BUFFER_WATER_MARK, ChannelOption.MESSAGE_SIZE_ESTIMATOR,
      ChannelOption.SINGLE_EVENTEXECUTOR_PER_GROUP, EpollChannelOption.EPOLL_MODE);
  private final EpollListener parent;
  private final InetSocketAddress remote;
  private volatile InetSocketAddress local;
  private final AcceptedChannelConfig config;

  AcceptedEpollChannel(EpollListener parent, int fd, InetSocketAddress remote) {
    // Not active to Netty's constructor, which would otherwise ask the socket for both its addresses.
    super(LinuxSocket.newSocket(fd), false);
    this.parent = parent;
    this.remote = remote;
    this.local = parent.childLocalAddress();
    this.config = new AcceptedChannelConfig(this, parent.childReads());
    active = true;
  }

  /** True when this channel serves child option {@code option} set to {@code value} as Netty's own would. */
  static boolean serves(ChannelOption<?> option, Object value) {
    if (option == ChannelOption.SO_LINGER) {
      return value instanceof Integer && (Integer) value <= 0;
    }
    return GENERIC.contains(option) || AcceptedChannelConfig.SOCKET.contains(option);
  }

  @Override
  protected void doClose() throws Exception {
    // close(2) takes the socket out of epoll; see the class comment.
    socket.close();
    super.doClose();
  }

  @Override
  protected SocketAddress localAddress0() {
    InetSocketAddress known = local;
    if (known == null && socket.isOpen()) {
      known = socket.localAddress();
      local = known;
    }
    return known;
  }

  @Override
  protected SocketAddress remoteAddress0() {
    return remote;
  }

  @Override
  public InetSocketAddress localAddress() {
    return (InetSocketAddress) super.localAddress();
  }

  @Override
  public InetSocketAddress remoteAddress() {
    return (InetSocketAddress) super.remoteAddress();
  }

  /** The listener that accepted this connection. */
  EpollListener listener() {
    return parent;
  }

  @Override
  public ServerSocketChannel parent() {
    return parent;
  }

  @Override
  public AcceptedChannelConfig config() {
    return config;
  }
}
