package io.portshare.runtime.net;

import com.sun.jna.LastErrorException;
import com.sun.jna.Memory;
import io.portshare.runtime.UsageException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;

/**
 * Listening TCP sockets as bare file descriptors, through libc: binding the SO_REUSEPORT group a
 * supervisor owns, and checking a descriptor someone handed us before any event loop touches it.
 */
public final class RawListeners {

  private static final int SOCKADDR_SIZE = 28;

  private RawListeners() {}

  /** What a descriptor handed to us must be: a listening TCP socket on IPv4 or IPv6. */
  static InetSocketAddress checkListening(int fd, String source) {
    LinuxLibC libc = libc(source);
    int type;
    int listening;
    int domain;
    try {
      type = intOption(libc, fd, LinuxLibC.SO_TYPE);
      listening = intOption(libc, fd, LinuxLibC.SO_ACCEPTCONN);
      domain = intOption(libc, fd, LinuxLibC.SO_DOMAIN);
    } catch (LastErrorException e) {
      throw new UsageException(source + ": descriptor " + fd + " is not a socket (errno " + e.getErrorCode() + ")");
    }
    if (type != LinuxLibC.SOCK_STREAM || (domain != LinuxLibC.AF_INET && domain != LinuxLibC.AF_INET6)) {
      throw new UsageException(source + ": descriptor " + fd + " is not a TCP socket (domain " + domain + ", type "
          + type + "); expected a listening TCP socket");
    }
    if (listening != 1) {
      throw new UsageException(source + ": descriptor " + fd + " is a TCP socket that is not listening; expected a "
          + "listening TCP socket");
    }
    return localAddress(libc, fd);
  }

  /**
   * Makes an inherited descriptor fit an event loop: non-blocking (it is shared with its other holders,
   * which all accept without blocking) and closed on exec, as sd_listen_fds(3) leaves it.
   */
  static void prepareInherited(int fd) {
    LinuxLibC libc = LinuxLibC.load();
    int flags = libc.fcntl(fd, LinuxLibC.F_GETFL, 0);
    libc.fcntl(fd, LinuxLibC.F_SETFL, flags | LinuxLibC.O_NONBLOCK);
    libc.fcntl(fd, LinuxLibC.F_SETFD, LinuxLibC.FD_CLOEXEC);
  }

  /** A new SO_REUSEPORT listening socket on {@code address}; the caller owns the descriptor. */
  public static int bindReuseport(InetSocketAddress address, int backlog) {
    LinuxLibC libc = LinuxLibC.load();
    boolean v6 = address.getAddress() instanceof Inet6Address;
    int fd = libc.socket(v6 ? LinuxLibC.AF_INET6 : LinuxLibC.AF_INET, LinuxLibC.SOCK_STREAM, 0);
    try {
      Memory one = new Memory(4);
      one.setInt(0, 1);
      libc.setsockopt(fd, LinuxLibC.SOL_SOCKET, LinuxLibC.SO_REUSEADDR, one, 4);
      libc.setsockopt(fd, LinuxLibC.SOL_SOCKET, LinuxLibC.SO_REUSEPORT, one, 4);
      Memory addr = new Memory(SOCKADDR_SIZE);
      addr.clear();
      int port = address.getPort();
      byte[] ip = address.getAddress().getAddress();
      addr.setShort(0, (short) (v6 ? LinuxLibC.AF_INET6 : LinuxLibC.AF_INET));
      addr.setByte(2, (byte) (port >> 8));
      addr.setByte(3, (byte) port);
      addr.write(v6 ? 8 : 4, ip, 0, ip.length);
      libc.bind(fd, addr, v6 ? 28 : 16);
      libc.listen(fd, backlog);
      return fd;
    } catch (LastErrorException e) {
      libc.close(fd);
      throw e;
    }
  }

  public static void close(int fd) {
    LinuxLibC.load().close(fd);
  }

  /** The address a socket is bound to (getsockname). */
  public static InetSocketAddress localAddress(int fd) {
    return localAddress(LinuxLibC.load(), fd);
  }

  private static InetSocketAddress localAddress(LinuxLibC libc, int fd) {
    Memory addr = new Memory(SOCKADDR_SIZE);
    Memory length = new Memory(4);
    addr.clear();
    length.setInt(0, SOCKADDR_SIZE);
    libc.getsockname(fd, addr, length);
    int family = addr.getShort(0);
    int port = ((addr.getByte(2) & 0xff) << 8) | (addr.getByte(3) & 0xff);
    byte[] ip = addr.getByteArray(family == LinuxLibC.AF_INET6 ? 8 : 4, family == LinuxLibC.AF_INET6 ? 16 : 4);
    try {
      return new InetSocketAddress(InetAddress.getByAddress(ip), port);
    } catch (UnknownHostException e) {
      throw new IllegalStateException("getsockname gave an address of " + ip.length + " bytes", e);
    }
  }

  private static int intOption(LinuxLibC libc, int fd, int option) {
    Memory value = new Memory(4);
    Memory length = new Memory(4);
    value.clear();
    length.setInt(0, 4);
    libc.getsockopt(fd, LinuxLibC.SOL_SOCKET, option, value, length);
    return value.getInt(0);
  }

  private static LinuxLibC libc(String source) {
    try {
      return LinuxLibC.load();
    } catch (UnsupportedOperationException e) {
      throw new UsageException(source + ": inherited sockets need Linux: " + e.getMessage());
    }
  }
}
