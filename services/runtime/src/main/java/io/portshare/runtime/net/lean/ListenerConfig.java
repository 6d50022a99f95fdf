package io.portshare.runtime.net.lean;

import io.netty.channel.ChannelOption;
import io.netty.channel.ServerChannelRecvByteBufAllocator;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.channel.socket.ServerSocketChannelConfig;
import io.netty.util.NetUtil;
import java.util.Map;
import java.util.Set;

/** The listener's options: backlog, SO_RCVBUF, SO_REUSEADDR, SO_REUSEPORT and Netty's generic ones. */
final class ListenerConfig extends LeanChannelConfig<ListenerConfig> implements ServerSocketChannelConfig {

  static final Set<ChannelOption<?>> SOCKET = Set.of(ChannelOption.SO_BACKLOG, ChannelOption.SO_RCVBUF,
      ChannelOption.SO_REUSEADDR, EpollChannelOption.SO_REUSEPORT);
  private static final int SOL_SOCKET = 1;
  private static final int SO_REUSEPORT = 15;

  private volatile int backlog = NetUtil.SOMAXCONN;

  ListenerConfig(EpollListener listener) {
    super(listener, new ServerChannelRecvByteBufAllocator());
  }

  private int intOption(int level, int name) {
    return socketCall(() -> socket().getIntOpt(level, name));
  }

  private void intOption(int level, int name, int value) {
    socketSet(() -> socket().setIntOpt(level, name, value));
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
  public ListenerConfig setBacklog(int backlog) {
    if (backlog < 0) {
      throw new IllegalArgumentException("backlog: " + backlog + " (expected: >= 0)");
    }
    this.backlog = backlog;
    return this;
  }
}
