package io.portshare.runtime.net.lean;

import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelException;
import io.netty.channel.ChannelOption;
import io.netty.channel.MessageSizeEstimator;
import io.netty.channel.RecvByteBufAllocator;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.epoll.AbstractEpollStreamChannel;
import io.netty.channel.epoll.EpollChannelConfig;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.channel.epoll.LinuxSocket;
import io.netty.channel.socket.ServerSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.SocketChannelConfig;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.Map;
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

  private static final int IPPROTO_TCP = 6;
  private static final int TCP_CORK = 3;
  private static final int TCP_QUICKACK = 12;

  /** Options of Netty's own channel configuration, which this channel's serves as Netty's does. */
  static final Set<ChannelOption<?>> GENERIC = Set.of(ChannelOption.CONNECT_TIMEOUT_MILLIS,
      ChannelOption.MAX_MESSAGES_PER_READ, ChannelOption.MAX_MESSAGES_PER_WRITE, ChannelOption.WRITE_SPIN_COUNT,
      ChannelOption.ALLOCATOR, ChannelOption.RCVBUF_ALLOCATOR, ChannelOption.AUTO_READ, ChannelOption.AUTO_CLOSE,
      ChannelOption.WRITE_BUFFER_HIGH_WATER_MARK, ChannelOption.WRITE_BUFFER_LOW_WATER_MARK,
      ChannelOption.WRITE_BUFFER_WATER_MARK, ChannelOption.MESSAGE_SIZE_ESTIMATOR,
      ChannelOption.SINGLE_EVENTEXECUTOR_PER_GROUP, EpollChannelOption.EPOLL_MODE);
  /** The socket options this channel sets itself. */
  private static final Set<ChannelOption<?>> SOCKET = Set.of(ChannelOption.TCP_NODELAY, ChannelOption.SO_KEEPALIVE,
      ChannelOption.SO_SNDBUF, ChannelOption.SO_RCVBUF, ChannelOption.SO_LINGER, ChannelOption.IP_TOS,
      ChannelOption.SO_REUSEADDR, ChannelOption.ALLOW_HALF_CLOSURE, EpollChannelOption.TCP_CORK,
      EpollChannelOption.TCP_QUICKACK);

  private final EpollListener parent;
  private final InetSocketAddress remote;
  private volatile InetSocketAddress local;
  private final Config config;

  AcceptedEpollChannel(EpollListener parent, int fd, InetSocketAddress remote) {
    // Not active to Netty's constructor, which would otherwise ask the socket for both its addresses.
    super(LinuxSocket.newSocket(fd), false);
    this.parent = parent;
    this.remote = remote;
    this.local = parent.childLocalAddress();
    this.config = new Config(this, parent.childReads());
    active = true;
  }

  /** True when this channel serves child option {@code option} set to {@code value} as Netty's own would. */
  static boolean serves(ChannelOption<?> option, Object value) {
    if (option == ChannelOption.SO_LINGER) {
      return value instanceof Integer && (Integer) value <= 0;
    }
    return GENERIC.contains(option) || SOCKET.contains(option);
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

  @Override
  public ServerSocketChannel parent() {
    return parent;
  }

  @Override
  public Config config() {
    return config;
  }

  /** Runs a socket call, as Netty's configurations do: a failure is a {@link ChannelException}. */
  private interface SocketCall<T> {
    T call() throws IOException;
  }

  private static <T> T socketCall(SocketCall<T> call) {
    try {
      return call.call();
    } catch (IOException e) {
      throw new ChannelException(e);
    }
  }

  /** The accepted channel's options: those of {@link #SOCKET} and Netty's generic ones. */
  static final class Config extends EpollChannelConfig implements SocketChannelConfig {
    private final AcceptedEpollChannel channel;
    private volatile boolean noDelay;
    private volatile int linger = -1;
    private volatile boolean allowHalfClosure;

    Config(AcceptedEpollChannel channel, RecvByteBufAllocator reads) {
      super(channel, reads);
      this.channel = channel;
      // TCP_NODELAY on, as Netty's epoll channel has it (and the C server sets it too).
      setTcpNoDelay(true);
      gatheringWriteBound(channel.parent.childSendBuffer(channel.socket));
    }

    /** Netty's bound for one writev(2): twice the send buffer, which the kernel reports doubled already. */
    private void gatheringWriteBound(int sendBuffer) {
      if (sendBuffer > 0) {
        setMaxBytesPerGatheringWrite((long) sendBuffer << 1);
      }
    }

    @Override
    public Map<ChannelOption<?>, Object> getOptions() {
      return getOptions(super.getOptions(), SOCKET.toArray(new ChannelOption<?>[0]));
    }

    @SuppressWarnings("unchecked")
    @Override
    public <T> T getOption(ChannelOption<T> option) {
      Object value;
      if (option == ChannelOption.TCP_NODELAY) {
        value = isTcpNoDelay();
      } else if (option == ChannelOption.SO_KEEPALIVE) {
        value = isKeepAlive();
      } else if (option == ChannelOption.SO_SNDBUF) {
        value = getSendBufferSize();
      } else if (option == ChannelOption.SO_RCVBUF) {
        value = getReceiveBufferSize();
      } else if (option == ChannelOption.SO_LINGER) {
        value = getSoLinger();
      } else if (option == ChannelOption.IP_TOS) {
        value = getTrafficClass();
      } else if (option == ChannelOption.SO_REUSEADDR) {
        value = isReuseAddress();
      } else if (option == ChannelOption.ALLOW_HALF_CLOSURE) {
        value = isAllowHalfClosure();
      } else if (option == EpollChannelOption.TCP_CORK) {
        value = socketCall(() -> socket().getIntOpt(IPPROTO_TCP, TCP_CORK) != 0);
      } else if (option == EpollChannelOption.TCP_QUICKACK) {
        value = socketCall(() -> socket().getIntOpt(IPPROTO_TCP, TCP_QUICKACK) != 0);
      } else {
        return super.getOption(option);
      }
      return (T) value;
    }

    @Override
    public <T> boolean setOption(ChannelOption<T> option, T value) {
      validate(option, value);
      if (option == ChannelOption.TCP_NODELAY) {
        setTcpNoDelay((Boolean) value);
      } else if (option == ChannelOption.SO_KEEPALIVE) {
        setKeepAlive((Boolean) value);
      } else if (option == ChannelOption.SO_SNDBUF) {
        setSendBufferSize((Integer) value);
      } else if (option == ChannelOption.SO_RCVBUF) {
        setReceiveBufferSize((Integer) value);
      } else if (option == ChannelOption.SO_LINGER) {
        setSoLinger((Integer) value);
      } else if (option == ChannelOption.IP_TOS) {
        setTrafficClass((Integer) value);
      } else if (option == ChannelOption.SO_REUSEADDR) {
        setReuseAddress((Boolean) value);
      } else if (option == ChannelOption.ALLOW_HALF_CLOSURE) {
        setAllowHalfClosure((Boolean) value);
      } else if (option == EpollChannelOption.TCP_CORK) {
        socketCall(() -> {
          socket().setIntOpt(IPPROTO_TCP, TCP_CORK, (Boolean) value ? 1 : 0);
          return null;
        });
      } else if (option == EpollChannelOption.TCP_QUICKACK) {
        socketCall(() -> {
          socket().setIntOpt(IPPROTO_TCP, TCP_QUICKACK, (Boolean) value ? 1 : 0);
          return null;
        });
      } else {
        return super.setOption(option, value);
      }
      return true;
    }

    @Override
    public boolean isTcpNoDelay() {
      return noDelay;
    }

    @Override
    public Config setTcpNoDelay(boolean tcpNoDelay) {
      socketCall(() -> {
        socket().setTcpNoDelay(tcpNoDelay);
        return null;
      });
      noDelay = tcpNoDelay;
      return this;
    }

    @Override
    public int getSoLinger() {
      return linger;
    }

    @Override
    public Config setSoLinger(int soLinger) {
      if (soLinger > 0) {
        throw new ChannelException("SO_LINGER above 0 is served by Netty's own epoll channel, not this one");
      }
      socketCall(() -> {
        socket().setSoLinger(soLinger);
        return null;
      });
      linger = soLinger;
      return this;
    }

    @Override
    public int getSendBufferSize() {
      return socketCall(() -> socket().getSendBufferSize());
    }

    @Override
    public Config setSendBufferSize(int sendBufferSize) {
      socketCall(() -> {
        socket().setSendBufferSize(sendBufferSize);
        return null;
      });
      gatheringWriteBound(getSendBufferSize());
      return this;
    }

    @Override
    public int getReceiveBufferSize() {
      return socketCall(() -> socket().getReceiveBufferSize());
    }

    @Override
    public Config setReceiveBufferSize(int receiveBufferSize) {
      socketCall(() -> {
        socket().setReceiveBufferSize(receiveBufferSize);
        return null;
      });
      return this;
    }

    @Override
    public int getTrafficClass() {
      return socketCall(() -> socket().getTrafficClass());
    }

    @Override
    public Config setTrafficClass(int trafficClass) {
      socketCall(() -> {
        socket().setTrafficClass(trafficClass);
        return null;
      });
      return this;
    }

    @Override
    public boolean isKeepAlive() {
      return socketCall(() -> socket().isKeepAlive());
    }

    @Override
    public Config setKeepAlive(boolean keepAlive) {
      socketCall(() -> {
        socket().setKeepAlive(keepAlive);
        return null;
      });
      return this;
    }

    @Override
    public boolean isReuseAddress() {
      return socketCall(() -> socket().isReuseAddress());
    }

    @Override
    public Config setReuseAddress(boolean reuseAddress) {
      socketCall(() -> {
        socket().setReuseAddress(reuseAddress);
        return null;
      });
      return this;
    }

    @Override
    public Config setPerformancePreferences(int connectionTime, int latency, int bandwidth) {
      return this;
    }

    @Override
    public boolean isAllowHalfClosure() {
      return allowHalfClosure;
    }

    @Override
    public Config setAllowHalfClosure(boolean allowHalfClosure) {
      this.allowHalfClosure = allowHalfClosure;
      return this;
    }

    // The setters below only narrow their return type to this configuration's.

    @Override
    public Config setConnectTimeoutMillis(int connectTimeoutMillis) {
      super.setConnectTimeoutMillis(connectTimeoutMillis);
      return this;
    }

    @Override
    @Deprecated
    public Config setMaxMessagesPerRead(int maxMessagesPerRead) {
      super.setMaxMessagesPerRead(maxMessagesPerRead);
      return this;
    }

    @Override
    public Config setWriteSpinCount(int writeSpinCount) {
      super.setWriteSpinCount(writeSpinCount);
      return this;
    }

    @Override
    public Config setAllocator(ByteBufAllocator allocator) {
      super.setAllocator(allocator);
      return this;
    }

    @Override
    public Config setRecvByteBufAllocator(RecvByteBufAllocator allocator) {
      super.setRecvByteBufAllocator(allocator);
      return this;
    }

    @Override
    public Config setAutoRead(boolean autoRead) {
      super.setAutoRead(autoRead);
      return this;
    }

    @Override
    public Config setAutoClose(boolean autoClose) {
      super.setAutoClose(autoClose);
      return this;
    }

    @Override
    @Deprecated
    public Config setWriteBufferHighWaterMark(int writeBufferHighWaterMark) {
      super.setWriteBufferHighWaterMark(writeBufferHighWaterMark);
      return this;
    }

    @Override
    @Deprecated
    public Config setWriteBufferLowWaterMark(int writeBufferLowWaterMark) {
      super.setWriteBufferLowWaterMark(writeBufferLowWaterMark);
      return this;
    }

    @Override
    public Config setWriteBufferWaterMark(WriteBufferWaterMark writeBufferWaterMark) {
      super.setWriteBufferWaterMark(writeBufferWaterMark);
      return this;
    }

    @Override
    public Config setMessageSizeEstimator(MessageSizeEstimator estimator) {
      super.setMessageSizeEstimator(estimator);
      return this;
    }
  }
}
