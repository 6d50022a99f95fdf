package io.portshare.runtime.impl.mode;

import io.portshare.runtime.UsageException;
import io.portshare.runtime.config.RuntimeSettings;
import io.portshare.runtime.config.TransportSetting;
import io.portshare.runtime.net.InheritedSockets;
import io.portshare.runtime.net.TransportChoice;
import io.vertx.core.transport.Transport;
import java.util.function.Consumer;

/**
 * Any mode on sockets given to the process (systemd's LISTEN_FDS, a supervisor's hand-over) instead
 * of bound here: the mode's Vert.x instance i serves the i-th socket, so there must be one per
 * listener the mode binds, on the port asked for, and an epoll transport to serve them. Falls back
 * from io_uring to epoll with one WARN line; anything else that does not fit fails with one line
 * (exit 2).
 */
public final class GivenSockets {

  private GivenSockets() {
  }

  /**
   * The transport that serves {@code sockets}: {@code chosen}, or epoll in place of io_uring (the
   * reason told to {@code fallback}, which prints it).
   */
  public static Transport transport(InheritedSockets sockets, Transport chosen, Machine machine,
      Consumer<String> fallback) {
    if (sockets.isEmpty() || chosen != Transport.IO_URING) {
      return chosen;
    }
    // Netty's io_uring listener cannot be built over an existing descriptor; epoll's can.
    fallback.accept("transport io_uring cannot serve inherited listening sockets; using epoll");
    return machine.transport(TransportSetting.EPOLL).transport();
  }

  /**
   * Fails with one line (exit 2) unless {@code sockets} fit {@code mode} as {@code settings} ask: as
   * many as it binds listeners, on the port asked for (0: any), served by epoll.
   */
  public static void check(InheritedSockets sockets, Mode mode, RuntimeSettings settings, Transport transport) {
    if (sockets.isEmpty()) {
      return;
    }
    int instances = settings.instances();
    int wanted = mode.sockets(instances);
    int given = sockets.size();
    if (given != wanted) {
      throw new UsageException(sockets.source() + " gives " + given + " listening socket" + (given == 1 ? "" : "s")
          + " but --mode " + mode.label() + " with --instances " + instances + " (" + settings.instancesSource()
          + ") serves " + wanted + (mode.reusePort() && mode.loopsPerVertx(instances) == 1 ? ", one per instance" : ""));
    }
    int port = settings.port();
    if (port != 0 && port != sockets.port()) {
      throw new UsageException(sockets.source() + " gives sockets listening on port " + sockets.port()
          + " but --port is " + port + " (" + settings.portSource() + "); give --port " + sockets.port() + " or 0");
    }
    if (transport != Transport.EPOLL) {
      throw new UsageException(sockets.source() + ": serving inherited sockets needs --transport epoll (this "
          + "runs " + TransportChoice.name(transport) + ")");
    }
  }
}
