package io.portshare.runtime.net;

import io.portshare.runtime.UsageException;
import io.portshare.runtime.config.TransportSetting;
import io.vertx.core.transport.Transport;
import java.util.Locale;

/**
 * Which Netty transport a service runs on, from {@code --transport}.
 *
 * <ul>
 *   <li>{@code epoll} must be there: asked for by name and missing, it is a usage error.
 *   <li>{@code io_uring} is often refused where epoll is not: container runtimes block
 *       {@code io_uring_setup} with seccomp, and {@code kernel.io_uring_disabled} turns it off. So a
 *       refused io_uring is one WARN line and the service runs on epoll (NIO off Linux), never a
 *       failed start: an operator can ask for io_uring everywhere.
 *   <li>{@code auto} is epoll where present, else NIO (io_uring did not win by measurement:
 *       static-server README, "io_uring").
 * </ul>
 */
public final class TransportChoice {

  private TransportChoice() {}

  /** The transport that runs, and why it is not the one asked for (null when it is). */
  public record Chosen(Transport transport, String fallback) {}

  /** The transport {@code wanted} gives here; refused io_uring and missing epoll under auto are fallbacks, not errors. */
  public static Chosen choose(TransportSetting wanted) {
    switch (wanted) {
      case NIO:
        return new Chosen(Transport.NIO, null);
      case EPOLL:
        if (!Transport.EPOLL.available()) {
          throw new UsageException("transport epoll is not available here: " + Transport.EPOLL.unavailabilityCause());
        }
        return new Chosen(Transport.EPOLL, null);
      case IO_URING:
        if (Transport.IO_URING.available()) {
          return new Chosen(Transport.IO_URING, null);
        }
        Transport instead = epollOrNio();
        return new Chosen(instead, "transport io_uring is refused here (" + why(Transport.IO_URING) + "); using "
            + name(instead));
      default:
        if (Transport.EPOLL.available()) {
          return new Chosen(Transport.EPOLL, null);
        }
        return new Chosen(Transport.NIO, "native epoll transport unavailable (" + why(Transport.EPOLL) + "); using NIO");
    }
  }

  /** The transport's name as the banner, the metrics and {@code --transport} spell it. */
  public static String name(Transport transport) {
    return transport.name().toLowerCase(Locale.ROOT);
  }

  /** True for the transports whose channels have a Linux file descriptor (epoll, io_uring). */
  static boolean isLinuxNative(Transport transport) {
    return transport == Transport.EPOLL || transport == Transport.IO_URING;
  }

  private static Transport epollOrNio() {
    return Transport.EPOLL.available() ? Transport.EPOLL : Transport.NIO;
  }

  private static String why(Transport transport) {
    Throwable cause = transport.unavailabilityCause();
    if (cause == null) {
      return "not Linux";
    }
    // Netty wraps the refused syscall a few levels deep; the innermost message names it.
    Throwable root = cause;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String msg = root.getMessage();
    return msg == null || msg.isBlank() ? root.toString() : msg;
  }
}
