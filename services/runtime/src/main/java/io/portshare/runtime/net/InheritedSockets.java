package io.portshare.runtime.net;

import io.portshare.runtime.UsageException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The listening sockets this process was given instead of binding its own: by systemd's socket
 * activation protocol ({@code LISTEN_PID}, {@code LISTEN_FDS}, optional {@code LISTEN_FDNAMES};
 * sd_listen_fds(3)), or by a portshare supervisor over its hand-over socket.
 * The one way sockets enter the runtime from outside; without either, the runtime binds its own.
 *
 * <p>Such a socket outlives this process: its holder (systemd, the supervisor) keeps it open, so a
 * successor serves the same accept queue and a restart resets nothing. That is why a drain stops
 * accepting on it but never closes it ({@link Listeners}).
 */
public final class InheritedSockets {

  /** sd_listen_fds(3): passed descriptors start here. */
  static final int LISTEN_FDS_START = 3;
  private static final InheritedSockets NONE = new InheritedSockets(List.of(), List.of(), "", null);

  private final List<Integer> fds;
  private final List<InetSocketAddress> addresses;
  private final String source;
  private final Path supervisor;

  private InheritedSockets(List<Integer> fds, List<InetSocketAddress> addresses, String source, Path supervisor) {
    this.fds = List.copyOf(fds);
    this.addresses = List.copyOf(addresses);
    this.source = source;
    this.supervisor = supervisor;
  }

  public static InheritedSockets none() {
    return NONE;
  }

  /** sd_listen_fds(3): the variables count only when LISTEN_PID names this process. */
  public static InheritedSockets fromListenFds(Map<String, String> env, long pid) {
    String listenPid = env.get("LISTEN_PID");
    String listenFds = env.get("LISTEN_FDS");
    if (listenFds == null || listenPid == null || !listenPid.trim().equals(Long.toString(pid))) {
      return NONE;
    }
    int n;
    try {
      n = Integer.parseInt(listenFds.trim());
    } catch (NumberFormatException e) {
      n = -1;
    }
    if (n < 0 || n > 4096) {
      throw new UsageException("invalid value for LISTEN_FDS: \"" + listenFds + "\"; expected a count of "
          + "descriptors 0..4096 (from the environment, set by systemd socket activation)");
    }
    List<Integer> fds = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      fds.add(LISTEN_FDS_START + i);
    }
    String names = env.get("LISTEN_FDNAMES");
    return of(fds, "LISTEN_FDS=" + n + (names == null ? "" : " (" + names + ")"), null);
  }

  /** Checks each descriptor (a listening TCP socket, one port for all) and readies it for an event loop. */
  public static InheritedSockets of(List<Integer> fds, String source, Path supervisor) {
    if (fds.isEmpty()) {
      return NONE;
    }
    List<InetSocketAddress> addresses = new ArrayList<>();
    for (int fd : fds) {
      InetSocketAddress a = RawListeners.checkListening(fd, source);
      if (!addresses.isEmpty() && addresses.get(0).getPort() != a.getPort()) {
        throw new UsageException(source + ": descriptor " + fd + " listens on port " + a.getPort() + ", descriptor "
            + fds.get(0) + " on port " + addresses.get(0).getPort() + "; expected one port for all");
      }
      addresses.add(a);
    }
    fds.forEach(RawListeners::prepareInherited);
    return new InheritedSockets(fds, addresses, source, supervisor);
  }

  public boolean isEmpty() {
    return fds.isEmpty();
  }

  public int size() {
    return fds.size();
  }

  public int fd(int index) {
    return fds.get(index);
  }

  public int port() {
    return addresses.get(0).getPort();
  }

  /** Where the sockets came from, for log lines and errors. */
  public String source() {
    return source;
  }

  /** True when a supervisor handed them over: it waits for the report that they are served. */
  public boolean fromSupervisor() {
    return supervisor != null;
  }

  /** The supervisor's hand-over socket they came from, or null. */
  public Path supervisor() {
    return supervisor;
  }
}
