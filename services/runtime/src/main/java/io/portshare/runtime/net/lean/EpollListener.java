package io.portshare.runtime.net.lean;

import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.AdaptiveRecvByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelException;
import io.netty.channel.ChannelOption;
import io.netty.channel.MessageSizeEstimator;
import io.netty.channel.RecvByteBufAllocator;
import io.netty.channel.ServerChannelRecvByteBufAllocator;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.epoll.AbstractEpollServerChannel;
import io.netty.channel.epoll.EpollChannelConfig;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.channel.epoll.LinuxSocket;
import io.netty.channel.socket.ServerSocketChannel;
import io.netty.channel.socket.ServerSocketChannelConfig;
import io.netty.channel.unix.NativeInetAddress;
import io.netty.util.NetUtil;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.Map;
import java.util.Set;

/**
 * An epoll listening socket whose accepted connections are {@link AcceptedEpollChannel}s: Netty's
 * {@code EpollServerSocketChannel} is final and makes its own {@code EpollSocketChannel}, so this
 * is built on the public {@link AbstractEpollServerChannel}. It serves the listener options Vert.x
 * and the runtime set ({@link #serves}); a server asking for another gets Netty's own channels.
 */
final class EpollListener extends AbstractEpollServerChannel implements ServerSocketChannel {

  private static final Set<ChannelOption<?>> SOCKET = Set.of(ChannelOption.SO_BACKLOG, ChannelOption.SO_RCVBUF,
      ChannelOption.SO_REUSEADDR, EpollChannelOption.SO_REUSEPORT);

  private final Config config = new Config(this);
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
    return SOCKET.contains(option) || AcceptedEpollChannel.GENERIC.contains(option);
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
      try {
        size = socket.getSendBufferSize();
      } catch (IOException e) {
        throw new ChannelException(e);
      }
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
  public Config config() {
    return config;
  }

  /** The listener's options: backlog, SO_RCVBUF, SO_REUSEADDR, SO_REUSEPORT and Netty's generic ones. */
  static final class Config extends EpollChannelConfig implements ServerSocketChannelConfig {
    private static final int SOL_SOCKET = 1;
    private static final int SO_REUSEPORT = 15;

    private final EpollListener listener;
    private volatile int backlog = NetUtil.SOMAXCONN;

    Config(EpollListener listener) {
      super(listener, new ServerChannelRecvByteBufAllocator());
      this.listener = listener;
    }

    private int intOption(int level, int name) {
      try {
        return listener.socket.getIntOpt(level, name);
      } catch (IOException e) {
        throw new ChannelException(e);
      }
    }

    private void intOption(int level, int name, int value) {
      try {
        listener.socket.setIntOpt(level, name, value);
      } catch (IOException e) {
        throw new ChannelException(e);
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
      if (option == ChannelOption.SO_BACKLOG) {
        value = getBacklog();
      } else if (option == ChannelOption.SO_RCVBUF) {
        value = getReceiveBufferSize();
      } else if (option == ChannelOption.SO_REUSEADDR) {
        value = isReuseAddress();
      } else if (option == EpollChannelOption.SO_REUSEPORT) {
        value = intOption(SOL_SOCKET, SO_REUSEPORT) != 0;
      } else {
        return super.getOption(option);
      }
      return (T) value;
    }

    @Override
    public <T> boolean setOption(ChannelOption<T> option, T value) {
      validate(option, value);
      if (option == ChannelOption.SO_BACKLOG) {
        setBacklog((Integer) value);
      } else if (option == ChannelOption.SO_RCVBUF) {
        setReceiveBufferSize((Integer) value);
      } else if (option == ChannelOption.SO_REUSEADDR) {
        setReuseAddress((Boolean) value);
      } else if (option == EpollChannelOption.SO_REUSEPORT) {
        intOption(SOL_SOCKET, SO_REUSEPORT, (Boolean) value ? 1 : 0);
      } else {
        return super.setOption(option, value);
      }
      return true;
    }

    @Override
    public int getBacklog() {
      return backlog;
    }

    @Override
    public Config setBacklog(int backlog) {
      if (backlog < 0) {
        throw new IllegalArgumentException("backlog: " + backlog + " (expected: >= 0)");
      }
      this.backlog = backlog;
      return this;
    }

    @Override
    public boolean isReuseAddress() {
      try {
        return listener.socket.isReuseAddress();
      } catch (IOException e) {
        throw new ChannelException(e);
      }
    }

    @Override
    public Config setReuseAddress(boolean reuseAddress) {
      try {
        listener.socket.setReuseAddress(reuseAddress);
      } catch (IOException e) {
        throw new ChannelException(e);
      }
      return this;
    }

    @Override
    public int getReceiveBufferSize() {
      try {
        return listener.socket.getReceiveBufferSize();
      } catch (IOException e) {
        throw new ChannelException(e);
      }
    }

    @Override
    public Config setReceiveBufferSize(int receiveBufferSize) {
      try {
        listener.socket.setReceiveBufferSize(receiveBufferSize);
      } catch (IOException e) {
        throw new ChannelException(e);
      }
      return this;
    }

    @Override
    public Config setPerformancePreferences(int connectionTime, int latency, int bandwidth) {
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
