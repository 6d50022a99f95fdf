package io.portshare.runtime.launch;

import com.sun.jna.LastErrorException;
import io.portshare.runtime.StartException;
import io.portshare.runtime.UsageException;
import io.portshare.runtime.config.RuntimeSettings;
import io.portshare.runtime.net.InheritedSockets;
import io.portshare.runtime.net.Listeners;
import io.portshare.runtime.net.RawListeners;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The listening sockets a supervisor hands its children, one list per slot: those systemd gave it
 * (one per child, or one all share), else a SO_REUSEPORT group it binds itself, one per child, and
 * closes only as it stops, once every child has taken its own.
 */
final class SupervisorSockets {

  private static final Logger LOG = LoggerFactory.getLogger(SupervisorSockets.class);

  private final int port;
  private final List<List<Integer>> slotSockets;
  /** The descriptors this process bound, and so must close: none when systemd gave them. */
  private final List<Integer> ownSockets;

  private SupervisorSockets(int port, List<List<Integer>> slotSockets, List<Integer> ownSockets) {
    this.port = port;
    this.slotSockets = List.copyOf(slotSockets);
    this.ownSockets = new ArrayList<>(ownSockets);
  }

  /** The sockets systemd gave this process, else a new SO_REUSEPORT group of one per child. */
  static SupervisorSockets open(RuntimeSettings settings, Map<String, String> env, int count) {
    List<List<Integer>> slotSockets = new ArrayList<>();
    List<Integer> ownSockets = new ArrayList<>();
    InheritedSockets inherited = InheritedSockets.fromListenFds(env, ProcessHandle.current().pid());
    int wantedPort = settings.port();
    if (!inherited.isEmpty()) {
      if (inherited.size() != count && inherited.size() != 1) {
        throw new UsageException(inherited.source() + " gives " + inherited.size() + " listening sockets but "
            + "--supervise is " + count + "; expected one per child or one for all");
      }
      if (wantedPort != 0 && wantedPort != inherited.port()) {
        throw new UsageException(inherited.source() + " gives sockets listening on port " + inherited.port()
            + " but --port is " + wantedPort + " (" + settings.portSource() + "); give --port "
            + inherited.port() + " or 0");
      }
      for (int i = 0; i < count; i++) {
        slotSockets.add(List.of(inherited.fd(inherited.size() == 1 ? 0 : i)));
      }
      int port = inherited.port();
      LOG.info("supervisor: {} children on {} inherited socket(s) on port {} from {}", count, inherited.size(), port,
          inherited.source());
      return new SupervisorSockets(port, slotSockets, ownSockets);
    }
    InetAddress host = settings.hostAddress();
    int port = wantedPort;
    for (int i = 0; i < count; i++) {
      int fd;
      try {
        fd = RawListeners.bindReuseport(new InetSocketAddress(host, port), Listeners.ACCEPT_BACKLOG);
      } catch (LastErrorException e) {
        throw new StartException("cannot listen on port " + port + ": errno " + e.getErrorCode()
            + (e.getErrorCode() == 98 ? " (address already in use)" : ""), e);
      }
      ownSockets.add(fd);
      slotSockets.add(List.of(fd));
      port = RawListeners.localAddress(fd).getPort();
    }
    LOG.info("supervisor: {} SO_REUSEPORT listening sockets on {}:{}, one per child", count, host.getHostAddress(),
        port);
    return new SupervisorSockets(port, slotSockets, ownSockets);
  }

  int port() {
    return port;
  }

  /** The descriptors the child of {@code slot} serves. */
  List<Integer> ofSlot(int slot) {
    return slotSockets.get(slot);
  }

  /** True while sockets this process bound are open. */
  synchronized boolean ownsAny() {
    return !ownSockets.isEmpty();
  }

  /** Closes the sockets this process bound (once); systemd's stay with systemd. */
  synchronized void closeOwn() {
    ownSockets.forEach(RawListeners::close);
    ownSockets.clear();
  }
}
