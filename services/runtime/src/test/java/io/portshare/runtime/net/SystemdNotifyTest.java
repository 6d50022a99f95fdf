package io.portshare.runtime.net;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.jna.LastErrorException;
import com.sun.jna.Library;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.NativeLong;
import com.sun.jna.Pointer;
import io.portshare.kit.ServiceProcess;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * sd_notify(3) as systemd receives it: a real AF_UNIX datagram socket, bound at a path or at an
 * abstract name, receives READY=1, STOPPING=1 and WATCHDOG=1 from a service run by the launcher.
 */
class SystemdNotifyTest {

  /** The receiving side, which only this test needs: what systemd does with NOTIFY_SOCKET. */
  interface Receiver extends Library {
    Receiver LIBC = Native.load("c", Receiver.class);

    int socket(int domain, int type, int protocol) throws LastErrorException;

    int bind(int fd, Pointer addr, int addrlen) throws LastErrorException;

    NativeLong recv(int fd, byte[] buf, NativeLong len, int flags) throws LastErrorException;

    int setsockopt(int fd, int level, int optname, Pointer optval, int optlen) throws LastErrorException;

    int close(int fd);
  }

  private static final int SO_RCVTIMEO = 20;

  /** A bound datagram socket; {@code name} starting with '@' is abstract. */
  private static int bind(String name) {
    int fd = Receiver.LIBC.socket(LinuxLibC.AF_UNIX, LinuxLibC.SOCK_DGRAM, 0);
    byte[] path = name.getBytes(StandardCharsets.UTF_8);
    boolean abstractName = path[0] == '@';
    if (abstractName) {
      path[0] = 0;
    }
    try (Memory address = new Memory(110); Memory timeout = new Memory(16)) {
      address.clear();
      address.setShort(0, (short) LinuxLibC.AF_UNIX);
      address.write(2, path, 0, path.length);
      Receiver.LIBC.bind(fd, address, 2 + path.length + (abstractName ? 0 : 1));
      timeout.setLong(0, 30);
      timeout.setLong(8, 0);
      Receiver.LIBC.setsockopt(fd, LinuxLibC.SOL_SOCKET, SO_RCVTIMEO, timeout, 16);
    }
    return fd;
  }

  private static String receive(int fd) {
    byte[] buf = new byte[4096];
    int n = Receiver.LIBC.recv(fd, buf, new NativeLong(buf.length), 0).intValue();
    return new String(buf, 0, n, StandardCharsets.UTF_8);
  }

  @Test
  void eachMessageIsOneDatagramAtAPathOrAnAbstractName(@TempDir Path dir) {
    String path = dir.resolve("notify").toString();
    String abstractName = "@portshare-test-" + UUID.randomUUID();
    for (String socket : List.of(path, abstractName)) {
      int fd = bind(socket);
      try {
        SystemdNotify notify = SystemdNotify.fromEnvironment(Map.of("NOTIFY_SOCKET", socket), 1);
        notify.ready("serving");
        notify.watchdog();
        notify.stopping("draining");
        assertThat(receive(fd)).isEqualTo("READY=1\nSTATUS=serving");
        assertThat(receive(fd)).isEqualTo("WATCHDOG=1");
        assertThat(receive(fd)).isEqualTo("STOPPING=1\nSTATUS=draining");
      } finally {
        Receiver.LIBC.close(fd);
      }
    }
  }

  @Test
  void theWatchdogIsFedAtHalfItsTimeoutOnlyForTheProcessItNames() {
    Map<String, String> env = Map.of("NOTIFY_SOCKET", "/run/x", "WATCHDOG_USEC", "10000000", "WATCHDOG_PID", "42");
    assertThat(SystemdNotify.fromEnvironment(env, 42).watchdogInterval()).isEqualTo(Duration.ofSeconds(5));
    assertThat(SystemdNotify.fromEnvironment(env, 43).watchdogInterval()).isZero();
    assertThat(SystemdNotify.fromEnvironment(Map.of("NOTIFY_SOCKET", "/run/x", "WATCHDOG_USEC", "4000000"), 7)
        .watchdogInterval()).isEqualTo(Duration.ofSeconds(2));
    assertThat(SystemdNotify.fromEnvironment(Map.of(), 42).enabled()).isFalse();
    // Sending without a socket does nothing, and never fails the service.
    SystemdNotify.fromEnvironment(Map.of(), 42).ready("serving");
  }

  /**
   * The launcher, as a process under a notify socket, tells systemd READY=1 once the service is
   * ready, WATCHDOG=1 while its loops run, STOPPING=1 on SIGTERM, and exits 0.
   */
  @Test
  void theLauncherSaysReadyFeedsTheWatchdogAndSaysStopping(@TempDir Path dir) throws Exception {
    String socket = dir.resolve("notify").toString();
    int fd = bind(socket);
    try (ServiceProcess p = ServiceProcess.launch(Map.of("NOTIFY_SOCKET", socket, "WATCHDOG_USEC", "400000"),
        "--service", "hello", "--port", "0", "--admin-port", "0", "--host", "127.0.0.1", "--instances", "1",
        "--drain-timeout", "1s")) {
      p.awaitReady(Duration.ofSeconds(120));
      String ready = receive(fd);
      assertThat(ready).as("first notification; output:\n%s", p.output()).startsWith("READY=1\nSTATUS=serving on port ");
      assertThat(p.admin().ready()).as("ready when READY=1 is sent").isTrue();
      assertThat(receive(fd)).isEqualTo("WATCHDOG=1");
      assertThat(receive(fd)).isEqualTo("WATCHDOG=1");
      p.terminate();
      String next;
      do {
        next = receive(fd);
      } while (next.equals("WATCHDOG=1"));
      assertThat(next).isEqualTo("STOPPING=1\nSTATUS=draining for up to 1000 ms");
      assertThat(p.awaitExit(Duration.ofSeconds(30))).isZero();
    } finally {
      Receiver.LIBC.close(fd);
    }
  }
}
