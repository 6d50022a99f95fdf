package io.portshare.runtime.net;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.ChannelOption;
import java.util.Map;

/**
 * Leaves out the options Vert.x sets on every accepted socket that change nothing.
 *
 * <p>Vert.x hands Netty its whole option set for each accepted connection, defaults included:
 * {@code TCP_QUICKACK}, {@code TCP_CORK} and {@code SO_KEEPALIVE} off, which is how a new socket
 * already is, and {@code TCP_NODELAY} on, which Netty's epoll channel has already set when it was
 * created. Four setsockopt(2) per connection for nothing (strace of static-server, one request per
 * connection: five setsockopt per accepted socket, one after this). A listener-wide option, or any
 * option asked for with a value other than the default, is kept.
 */
final class AcceptedSocketOptions {

  private AcceptedSocketOptions() {}

  /** Drops the child options of {@code bootstrap} that ask for a new socket's own state. */
  static void trim(ServerBootstrap bootstrap, boolean nettySetsNoDelay) {
    for (Map.Entry<ChannelOption<?>, Object> e : bootstrap.config().childOptions().entrySet()) {
      if (asksForDefault(e.getKey(), e.getValue(), nettySetsNoDelay)) {
        bootstrap.childOption(e.getKey(), null);
      }
    }
  }

  static boolean asksForDefault(ChannelOption<?> option, Object value, boolean nettySetsNoDelay) {
    String name = option.name();
    if (Boolean.FALSE.equals(value)) {
      // Epoll's and io_uring's options are distinct objects named after their class: "...#TCP_CORK".
      return option == ChannelOption.SO_KEEPALIVE || name.endsWith("#TCP_QUICKACK") || name.endsWith("#TCP_CORK");
    }
    return nettySetsNoDelay && option == ChannelOption.TCP_NODELAY && Boolean.TRUE.equals(value);
  }
}
