package io.portshare.runtime.net;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.ChannelOption;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.channel.uring.IoUringChannelOption;
import org.junit.jupiter.api.Test;

/** Only options that ask for a new socket's own state leave; anything else asked for stays. */
class AcceptedSocketOptionsTest {

  @Test
  void defaultsLeaveAndRealChoicesStay() {
    ServerBootstrap b = new ServerBootstrap()
        .childOption(EpollChannelOption.TCP_QUICKACK, false)
        .childOption(IoUringChannelOption.TCP_CORK, false)
        .childOption(ChannelOption.SO_KEEPALIVE, false)
        .childOption(ChannelOption.TCP_NODELAY, true)
        .childOption(EpollChannelOption.TCP_CORK, true)
        .childOption(ChannelOption.SO_SNDBUF, 65536);

    AcceptedSocketOptions.trim(b, true);

    assertThat(b.config().childOptions()).containsOnlyKeys(EpollChannelOption.TCP_CORK, ChannelOption.SO_SNDBUF);
  }

  @Test
  void noDelayStaysWhereNettyDoesNotSetItItself() {
    ServerBootstrap b = new ServerBootstrap().childOption(ChannelOption.TCP_NODELAY, true)
        .childOption(ChannelOption.SO_KEEPALIVE, true);

    AcceptedSocketOptions.trim(b, false);

    assertThat(b.config().childOptions()).containsOnlyKeys(ChannelOption.TCP_NODELAY, ChannelOption.SO_KEEPALIVE);
  }
}
