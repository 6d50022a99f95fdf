package io.portshare.runtime.config;

import java.util.Locale;

/**
 * The Netty channels {@code --channel} asks for on epoll: the runtime's lean ones (the system calls
 * per connection a C epoll server makes) or Netty's own. Other transports always run Netty's. On
 * every transport it also chooses how a service on Vert.x's API reaches a Buffer's bytes
 * ({@code ServiceContext.bufferBytes}): in place on {@code lean}, through copies on {@code netty}.
 */
public enum ChannelSetting {
  LEAN,
  NETTY;

  public static ChannelSetting of(String name) {
    return valueOf(name.toUpperCase(Locale.ROOT));
  }

  /** As {@code --channel}, the banner and the metrics spell it. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
