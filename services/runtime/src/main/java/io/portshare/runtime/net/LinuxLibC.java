package io.portshare.runtime.net;

import com.sun.jna.LastErrorException;
import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.NativeLong;
import com.sun.jna.Platform;
import com.sun.jna.Pointer;

/**
 * The few glibc calls the pinned mode, the drain, inherited sockets and systemd's notifications
 * make, through JNA. None of them is on a hot path: they run once per thread or per listener at start, or while a listener closes. JNA rather than the JDK's foreign function API because
 * the runtime targets Java 17, where that API is still incubating.
 */
interface LinuxLibC extends Library {

  int SOL_SOCKET = 1;
  int SO_REUSEADDR = 2;
  int SO_TYPE = 3;
  int SO_REUSEPORT = 15;
  int SO_ACCEPTCONN = 30;
  int SO_DOMAIN = 39;
  /** asm-generic value, which x86-64 and aarch64 use (other architectures number it differently). */
  int SO_ATTACH_REUSEPORT_CBPF = 51;
  int AF_UNIX = 1;
  int AF_INET = 2;
  int AF_INET6 = 10;
  int SOCK_STREAM = 1;
  int SOCK_DGRAM = 2;
  /** asm-generic value, which x86-64 and aarch64 use. */
  int SOCK_CLOEXEC = 0x80000;
  int F_SETFD = 2;
  int F_GETFL = 3;
  int F_SETFL = 4;
  int FD_CLOEXEC = 1;
  /** asm-generic value, which x86-64 and aarch64 use. */
  int O_NONBLOCK = 0x800;

  int sched_getaffinity(int pid, NativeLong cpusetsize, Pointer mask) throws LastErrorException;

  int sched_setaffinity(int pid, NativeLong cpusetsize, Pointer mask) throws LastErrorException;

  int getpid();

  int setsockopt(int fd, int level, int optname, Pointer optval, int optlen) throws LastErrorException;

  int getsockopt(int fd, int level, int optname, Pointer optval, Pointer optlen) throws LastErrorException;

  int socket(int domain, int type, int protocol) throws LastErrorException;

  int bind(int fd, Pointer addr, int addrlen) throws LastErrorException;

  int listen(int fd, int backlog) throws LastErrorException;

  int close(int fd);

  int dup(int fd) throws LastErrorException;

  int getsockname(int fd, Pointer addr, Pointer addrlen) throws LastErrorException;

  int sendto(int fd, byte[] buf, NativeLong len, int flags, Pointer addr, int addrlen) throws LastErrorException;

  /** Only the commands that take an int (or nothing): F_GETFL, F_SETFL, F_SETFD. */
  int fcntl(int fd, int cmd, int arg) throws LastErrorException;

  /** Loads libc, or says in one line why the pinned mode cannot use it here. */
  static LinuxLibC load() throws UnsupportedOperationException {
    if (!Platform.isLinux()) {
      throw new UnsupportedOperationException("not Linux (" + System.getProperty("os.name") + ")");
    }
    if (!(Platform.ARCH.equals("x86-64") || Platform.ARCH.equals("aarch64"))) {
      throw new UnsupportedOperationException("socket option numbers not known for architecture " + Platform.ARCH);
    }
    try {
      return Holder.INSTANCE;
    } catch (LinkageError e) {
      throw new UnsupportedOperationException("cannot load libc through JNA: " + e, e);
    }
  }

  /** Lazily loaded so that merely naming the interface never touches native code. */
  final class Holder {
    static final LinuxLibC INSTANCE = Native.load("c", LinuxLibC.class);

    private Holder() {}
  }
}
