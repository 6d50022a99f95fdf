package io.portshare.runtime.net;

import com.sun.jna.LastErrorException;
import com.sun.jna.Library;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Platform;
import com.sun.jna.Pointer;
import io.portshare.runtime.launch.Launcher;

/**
 * The launcher in a process whose kernel refuses {@code io_uring_setup(2)} with EPERM, as a
 * container runtime's seccomp profile does: a real seccomp filter, installed on the main thread
 * before anything touches io_uring, so every thread the service starts afterwards inherits it.
 */
public final class IoUringRefusedLauncher {

  /** io_uring_setup in the generic syscall table, which x86-64 and aarch64 both use for it. */
  static final int NR_IO_URING_SETUP = 425;
  private static final int PR_SET_NO_NEW_PRIVS = 38;
  private static final int PR_SET_SECCOMP = 22;
  private static final int SECCOMP_MODE_FILTER = 2;
  private static final int SECCOMP_RET_ERRNO = 0x00050000;
  private static final int SECCOMP_RET_ALLOW = 0x7fff0000;
  private static final int EPERM = 1;

  interface Prctl extends Library {
    int prctl(int option, long arg2, long arg3, long arg4, long arg5) throws LastErrorException;
  }

  private IoUringRefusedLauncher() {}

  public static void main(String[] args) {
    if (!(Platform.ARCH.equals("x86-64") || Platform.ARCH.equals("aarch64"))) {
      throw new IllegalStateException("syscall number of io_uring_setup not known for " + Platform.ARCH);
    }
    Prctl libc = Native.load("c", Prctl.class);
    // ld [nr]; jeq #425 ? ret ERRNO(EPERM) : ret ALLOW   (struct sock_filter: u16 code, u8 jt, u8 jf, u32 k)
    int[][] program = {
        {0x20, 0, 0, 0},
        {0x15, 0, 1, NR_IO_URING_SETUP},
        {0x06, 0, 0, SECCOMP_RET_ERRNO | EPERM},
        {0x06, 0, 0, SECCOMP_RET_ALLOW},
    };
    Memory filter = new Memory(8L * program.length);
    for (int i = 0; i < program.length; i++) {
      filter.setShort(8L * i, (short) program[i][0]);
      filter.setByte(8L * i + 2, (byte) program[i][1]);
      filter.setByte(8L * i + 3, (byte) program[i][2]);
      filter.setInt(8L * i + 4, program[i][3]);
    }
    Memory fprog = new Memory(16);
    fprog.clear();
    fprog.setShort(0, (short) program.length);
    fprog.setPointer(8, filter);
    libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
    libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, Pointer.nativeValue(fprog), 0, 0);
    Launcher.main(args);
  }
}
