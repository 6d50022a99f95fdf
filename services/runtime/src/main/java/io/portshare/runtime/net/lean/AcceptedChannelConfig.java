package io.portshare.runtime.net.lean;

import io.netty.channel.ChannelException;
import io.netty.channel.ChannelOption;
import io.netty.channel.RecvByteBufAllocator;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.channel.socket.SocketChannelConfig;
import java.util.Map;
import java.util.Set;

/** The options of an {@link AcceptedEpollChannel}: those of {@link #SOCKET} and Netty's generic ones. */
final class AcceptedChannelConfig extends LeanChannelConfig<AcceptedChannelConfig> implements SocketChannelConfig {

  private static final int IPPROTO_TCP = 6;
  private static final int TCP_CORK = 3;
  private static final int TCP_QUICKACK = 12;
  /** The socket options this channel sets itself. */
  static final Set<ChannelOption<?>> SOCKET = Set.of(ChannelOption.TCP_NODELAY, ChannelOption.SO_KEEPALIVE,
      ChannelOption.SO_SNDBUF, ChannelOption.SO_RCVBUF, ChannelOption.SO_LINGER, ChannelOption.IP_TOS,
      ChannelOption.SO_REUSEADDR, ChannelOption.ALLOW_HALF_CLOSURE, EpollChannelOption.TCP_CORK,
      EpollChannelOption.TCP_QUICKACK);
  private volatile boolean noDelay;
  private volatile int linger = -1;
  private volatile boolean allowHalfClosure;

  AcceptedChannelConfig(AcceptedEpollChannel channel, RecvByteBufAllocator reads) {
    super(channel, reads);
    // TCP_NODELAY on, as Netty's epoll channel has it (and the C server sets it too).
    setTcpNoDelay(true);
    gatheringWriteBound(channel.listener().childSendBuffer(socket()));
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
      socketSet(() -> socket().setIntOpt(IPPROTO_TCP, TCP_CORK, (Boolean) value ? 1 : 0));
    } else if (option == EpollChannelOption.TCP_QUICKACK) {
      socketSet(() -> socket().setIntOpt(IPPROTO_TCP, TCP_QUICKACK, (Boolean) value ? 1 : 0));
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
  public AcceptedChannelConfig setTcpNoDelay(boolean tcpNoDelay) {
    socketSet(() -> socket().setTcpNoDelay(tcpNoDelay));
    noDelay = tcpNoDelay;
    return this;
  }

  @Override
  public int getSoLinger() {
    return linger;
  }

  @Override
  public AcceptedChannelConfig setSoLinger(int soLinger) {
    if (soLinger > 0) {
      throw new ChannelException("SO_LINGER above 0 is served by Netty's own epoll channel, not this one");
    }
    socketSet(() -> socket().setSoLinger(soLinger));
    linger = soLinger;
    return this;
  }

  @Override
  public int getSendBufferSize() {
    return socketCall(() -> socket().getSendBufferSize());
  }

  @Override
  public AcceptedChannelConfig setSendBufferSize(int sendBufferSize) {
    socketSet(() -> socket().setSendBufferSize(sendBufferSize));
    gatheringWriteBound(getSendBufferSize());
    return this;
  }

  @Override
  public int getTrafficClass() {
    return socketCall(() -> socket().getTrafficClass());
  }

  @Override
  public AcceptedChannelConfig setTrafficClass(int trafficClass) {
    socketSet(() -> socket().setTrafficClass(trafficClass));
    return this;
  }

  @Override
  public boolean isKeepAlive() {
    return socketCall(() -> socket().isKeepAlive());
  }

  @Override
  public AcceptedChannelConfig setKeepAlive(boolean keepAlive) {
    socketSet(() -> socket().setKeepAlive(keepAlive));
    return this;
  }

  @Override
  public boolean isAllowHalfClosure() {
    return allowHalfClosure;
  }

  @Override
  public AcceptedChannelConfig setAllowHalfClosure(boolean allowHalfClosure) {
    this.allowHalfClosure = allowHalfClosure;
    return this;
  }
}
