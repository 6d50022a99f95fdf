package io.portshare.runtime.config;

import java.util.Locale;

/** The Netty transport {@code --transport} asks for; which one runs is decided at start (see TransportChoice). */
public enum TransportSetting {
  /** Native epoll where present, else NIO. */
  AUTO,
  EPOLL,
  /** io_uring where the kernel allows it, else epoll (NIO off Linux), with one WARN line. */
  IO_URING,
  NIO;

  public static TransportSetting of(String name) {
    return valueOf(name.toUpperCase(Locale.ROOT));
  }

  /** As {@code --transport}, the banner and the metrics spell it. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
