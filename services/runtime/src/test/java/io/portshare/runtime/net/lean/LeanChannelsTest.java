package io.portshare.runtime.net.lean;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.ChannelOption;
import io.netty.channel.epoll.EpollChannelOption;
import org.junit.jupiter.api.Test;

/** What the lean channels rest on, checked where an upgrade would break it. */
class LeanChannelsTest {

  @Test
  void theNettyOnTheClassPathIsTheOneTheLeanChannelsWereTestedOn() {
    // A Netty upgrade fails here: run the whole suite on both channels on the new Netty (the
    // netty-channel executions do), check the assumptions LeanChannels lists, then move TESTED_NETTY.
    // Until then a service on the new Netty runs Netty's own channels, with one WARN line.
    assertThat(LeanChannels.nettyOnClassPath()).as("Netty's epoll classes on the class path")
        .isEqualTo(LeanChannels.TESTED_NETTY);
    assertThat(LeanChannels.testedOnThisNetty()).isTrue();
  }

  @Test
  void anOptionTheLeanChannelsDoNotServeIsNamedWithItsValue() {
    ServerBootstrap served = new ServerBootstrap().option(ChannelOption.SO_BACKLOG, 128)
        .option(EpollChannelOption.SO_REUSEPORT, true).childOption(ChannelOption.TCP_NODELAY, true)
        .childOption(ChannelOption.SO_LINGER, 0).childOption(EpollChannelOption.TCP_QUICKACK, true);
    assertThat(LeanChannels.unserved(served)).isEmpty();

    assertThat(LeanChannels.unserved(new ServerBootstrap().option(ChannelOption.TCP_FASTOPEN, 256)))
        .hasValue("listener option TCP_FASTOPEN=256");
    assertThat(LeanChannels.unserved(new ServerBootstrap().childOption(ChannelOption.SO_LINGER, 5)))
        .hasValue("connection option SO_LINGER=5");
    assertThat(LeanChannels.unserved(new ServerBootstrap().childOption(EpollChannelOption.TCP_USER_TIMEOUT, 1000)))
        .hasValue("connection option TCP_USER_TIMEOUT=1000");
  }
}
