package io.portshare.runtime.net;

import com.sun.jna.LastErrorException;
import com.sun.jna.Memory;
import com.sun.jna.NativeLong;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * sd_notify(3) without libsystemd: a unit of {@code Type=notify} learns that the service is ready
 * ({@code READY=1}, after the warm-up), that it drains ({@code STOPPING=1}), and, with
 * {@code WatchdogSec=}, that its event loops still run ({@code WATCHDOG=1}, sent only while none is
 * stuck: the same beats as /health/live). Each message is one datagram to the AF_UNIX socket named
 * by {@code NOTIFY_SOCKET} (a path, or an abstract name written with a leading '@'), sent through
 * JNA: the JDK's Unix-domain channels speak only stream sockets, and this one is a datagram socket.
 * Without {@code NOTIFY_SOCKET} (not under systemd) every call does nothing.
 */
public final class SystemdNotify {

  private static final Logger LOG = LoggerFactory.getLogger(SystemdNotify.class);
  private static final int MSG_DONTWAIT = 0x40;
  private static final int MSG_NOSIGNAL = 0x4000;
  /** struct sockaddr_un: a 2-byte family, then up to 108 bytes of path. */
  private static final int SUN_PATH_OFFSET = 2;
  private static final int SUN_PATH_MAX = 108;
  private static final SystemdNotify NONE = new SystemdNotify(null, Duration.ZERO);

  private final String socket;
  private final Duration watchdog;
  private volatile boolean failedOnce;

  private SystemdNotify(String socket, Duration watchdog) {
    this.socket = socket;
    this.watchdog = watchdog;
  }

  /**
   * From {@code NOTIFY_SOCKET}, and {@code WATCHDOG_USEC} when {@code WATCHDOG_PID} is unset or names
   * {@code pid} (sd_watchdog_enabled(3)); nothing to notify without them.
   */
  public static SystemdNotify fromEnvironment(Map<String, String> env, long pid) {
    String socket = env.get("NOTIFY_SOCKET");
    if (socket == null || socket.isEmpty()) {
      return NONE;
    }
    if (!(socket.startsWith("/") || socket.startsWith("@")) || socket.length() > SUN_PATH_MAX) {
      LOG.warn("NOTIFY_SOCKET={} is not a Unix socket path or abstract name this process can reach: systemd is "
          + "not told of readiness", socket);
      return NONE;
    }
    Duration watchdog = Duration.ZERO;
    String usec = env.get("WATCHDOG_USEC");
    String watchdogPid = env.get("WATCHDOG_PID");
    if (usec != null && (watchdogPid == null || watchdogPid.trim().equals(Long.toString(pid)))) {
      try {
        watchdog = Duration.ofNanos(Long.parseLong(usec.trim()) * 1000);
      } catch (NumberFormatException e) {
        LOG.warn("WATCHDOG_USEC={} is not a number of microseconds: no watchdog notifications", usec);
      }
    }
    return new SystemdNotify(socket, watchdog);
  }

  public boolean enabled() {
    return socket != null;
  }

  /** How often to send WATCHDOG=1: half the watchdog's timeout, as sd_watchdog_enabled(3) advises; zero: never. */
  public Duration watchdogInterval() {
    return watchdog.dividedBy(2);
  }

  public void ready(String status) {
    send("READY=1\nSTATUS=" + status);
  }

  public void stopping(String status) {
    send("STOPPING=1\nSTATUS=" + status);
  }

  public void watchdog() {
    send("WATCHDOG=1");
  }

  /** One datagram; a failure is logged once and otherwise ignored (systemd then acts on its timeouts). */
  public void send(String message) {
    if (socket == null) {
      return;
    }
    LinuxLibC libc;
    try {
      libc = LinuxLibC.load();
    } catch (UnsupportedOperationException e) {
      warnOnce(e.getMessage());
      return;
    }
    byte[] path = socket.getBytes(StandardCharsets.UTF_8);
    boolean abstractName = path[0] == '@';
    if (abstractName) {
      path[0] = 0;
    }
    int fd = -1;
    try (Memory address = new Memory(SUN_PATH_OFFSET + SUN_PATH_MAX)) {
      address.clear();
      address.setShort(0, (short) LinuxLibC.AF_UNIX);
      address.write(SUN_PATH_OFFSET, path, 0, path.length);
      // An abstract name is exactly its bytes; a path ends with its NUL.
      int length = SUN_PATH_OFFSET + path.length + (abstractName ? 0 : 1);
      byte[] bytes = message.getBytes(StandardCharsets.UTF_8);
      fd = libc.socket(LinuxLibC.AF_UNIX, LinuxLibC.SOCK_DGRAM | LinuxLibC.SOCK_CLOEXEC, 0);
      libc.sendto(fd, bytes, new NativeLong(bytes.length), MSG_NOSIGNAL | MSG_DONTWAIT, address, length);
    } catch (LastErrorException e) {
      warnOnce("errno " + e.getErrorCode());
    } finally {
      if (fd >= 0) {
        libc.close(fd);
      }
    }
  }

  private void warnOnce(String why) {
    if (!failedOnce) {
      failedOnce = true;
      LOG.warn("cannot notify systemd at NOTIFY_SOCKET={} ({}); it goes by its timeouts instead", socket, why);
    }
  }
}
