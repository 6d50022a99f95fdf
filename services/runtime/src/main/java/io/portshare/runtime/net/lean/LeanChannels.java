package io.portshare.runtime.net.lean;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.ChannelFactory;
import io.netty.channel.ChannelOption;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.ServerChannel;
import io.netty.util.Version;
import java.util.Map;
import java.util.Optional;

/**
 * The runtime's lean epoll channels ({@code --channel lean}): a listener ({@link EpollListener}),
 * its accepted connections ({@link AcceptedEpollChannel}) and an event loop handler that hands
 * epoll each channel's interest once per turn ({@link CoalescingEpollIoHandler}). Together they
 * make the system calls per connection a C epoll server makes, where Netty's own channels make a
 * getsockname(2), two getsockopt(2), an EPOLL_CTL_DEL and a second epoll_ctl(2) more (the ledger's
 * ab-syscalls run; {@code AcceptedSocketSyscallTest} asserts both channels' counts).
 *
 * <p>They are built on Netty's public but internal-facing classes: {@code AbstractEpollServerChannel},
 * {@code AbstractEpollStreamChannel}, their protected {@code socket} and {@code active} fields,
 * {@code LinuxSocket} ({@code @UnstableApi}), the cast of an interest to {@code EpollIoOps}, and the
 * order of close(2) against deregistration. Those hold for the Netty they were tested on,
 * {@link #TESTED_NETTY}; on any other the runtime runs Netty's own channels and says so in one WARN
 * line ({@link #testedOnThisNetty}), and {@code LeanChannelsTest} fails the build until this package
 * has been tested on the new one and the constant moved.
 */
public final class LeanChannels {

  /** The Netty release the lean channels' assumptions were tested on (the whole suite, on both channels). */
  public static final String TESTED_NETTY = "4.2.18.Final";
  private static final String EPOLL_ARTIFACT = "netty-transport-classes-epoll";

  private LeanChannels() {}

  /** The version of Netty's epoll classes on the class path, or "unknown" where Netty's manifest is missing. */
  public static String nettyOnClassPath() {
    Version v = Version.identify().get(EPOLL_ARTIFACT);
    return v == null ? "unknown" : v.artifactVersion();
  }

  /** True when the Netty on the class path is the one these channels were tested on. */
  public static boolean testedOnThisNetty() {
    return TESTED_NETTY.equals(nettyOnClassPath());
  }

  /** New listeners that bind their own socket. */
  public static ChannelFactory<ServerChannel> listeners() {
    return EpollListener::new;
  }

  /** A listener over {@code fd}, a listening socket this process was given. */
  public static ServerChannel inherited(int fd) {
    return new EpollListener(fd);
  }

  /** Event loop handlers: each of {@code epoll}'s, with interest changes coalesced per turn. */
  public static IoHandlerFactory ioHandlers(IoHandlerFactory epoll) {
    return CoalescingEpollIoHandler.factory(epoll);
  }

  /**
   * The first option of {@code bootstrap}, listener's or connection's, that these channels do not
   * serve as Netty's own would, by name and value; empty when they serve all.
   */
  public static Optional<String> unserved(ServerBootstrap bootstrap) {
    for (Map.Entry<ChannelOption<?>, Object> e : bootstrap.config().options().entrySet()) {
      if (!EpollListener.serves(e.getKey(), e.getValue())) {
        return Optional.of("listener option " + name(e.getKey()) + "=" + e.getValue());
      }
    }
    for (Map.Entry<ChannelOption<?>, Object> e : bootstrap.config().childOptions().entrySet()) {
      if (!AcceptedEpollChannel.serves(e.getKey(), e.getValue())) {
        return Optional.of("connection option " + name(e.getKey()) + "=" + e.getValue());
      }
    }
    return Optional.empty();
  }

  /** An option's name without its class: Netty names epoll's and io_uring's after theirs ("...#TCP_CORK"). */
  private static String name(ChannelOption<?> option) {
    return option.name().substring(option.name().lastIndexOf('#') + 1);
  }
}
