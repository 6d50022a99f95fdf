package io.portshare.runtime.net;

import com.sun.jna.LastErrorException;
import com.sun.jna.Memory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Steers each new connection of a SO_REUSEPORT group to the listener owned by the CPU that received
 * it, with a classic BPF program on the group ({@code SO_ATTACH_REUSEPORT_CBPF}, Linux 4.5+).
 *
 * <p>The program returns an index into the group, whose members are numbered in the order they
 * started listening; so listener {@code i} must be bound i-th, by the event loop pinned to
 * {@code cpus[i]}. An index out of range (a CPU that owns no listener) makes the kernel fall back to
 * its hash. cBPF rather than {@code SO_INCOMING_CPU} on each listener: the group only honours that
 * option since Linux 6.1, while the program works on every kernel a JDK 17 runs on.
 *
 * <p>Any one member of the group carries the program for all; the runtime hands it the fd of one
 * of its own listeners ({@link Listeners}), and first checks in the kernel's tables that the group
 * holds no one else's socket, which would shift the numbering.
 */
final class ReuseportSteering {

  /** {@code BPF_LD | BPF_W | BPF_ABS}. */
  static final int LD_W_ABS = 0x20;
  /** {@code BPF_JMP | BPF_JEQ | BPF_K}. */
  static final int JEQ_K = 0x15;
  /** {@code BPF_RET | BPF_K}. */
  static final int RET_K = 0x06;
  /** {@code BPF_RET | BPF_A}. */
  static final int RET_A = 0x16;
  /** {@code SKF_AD_OFF + SKF_AD_CPU}: loads the id of the CPU running the program. */
  static final int AD_CPU = -0x1000 + 36;
  /** Out of any group's range: the kernel then picks by hash. */
  static final int NO_LISTENER = 0xffffffff;
  /** The kernel's BPF_MAXINSNS. */
  static final int MAX_INSNS = 4096;

  /** One {@code struct sock_filter}. */
  record Insn(int code, int jt, int jf, int k) {}

  private final LinuxLibC libc;

  ReuseportSteering(LinuxLibC libc) {
    this.libc = libc;
  }

  /**
   * The program mapping CPU {@code cpus[i]} to listener {@code i}: {@code ld #cpu; ret a} when the
   * CPUs are 0..n-1, otherwise a jump table (a cpuset such as 2,3 in a container).
   */
  static List<Insn> program(int[] cpus) {
    List<Insn> prog = new ArrayList<>();
    prog.add(new Insn(LD_W_ABS, 0, 0, AD_CPU));
    boolean identity = true;
    for (int i = 0; i < cpus.length; i++) {
      identity &= cpus[i] == i;
    }
    if (identity) {
      prog.add(new Insn(RET_A, 0, 0, 0));
      return prog;
    }
    for (int i = 0; i < cpus.length; i++) {
      prog.add(new Insn(JEQ_K, 0, 1, cpus[i]));
      prog.add(new Insn(RET_K, 0, 0, i));
    }
    prog.add(new Insn(RET_K, 0, 0, NO_LISTENER));
    if (prog.size() > MAX_INSNS) {
      throw new IllegalArgumentException("steering program for " + cpus.length + " CPUs exceeds "
          + MAX_INSNS + " instructions");
    }
    return prog;
  }

  /** Attaches the program to the reuseport group of the listening socket {@code fd}. */
  void attach(int fd, int[] cpus) {
    List<Insn> prog = program(cpus);
    Memory filter = new Memory(8L * prog.size());
    for (int i = 0; i < prog.size(); i++) {
      Insn in = prog.get(i);
      long at = 8L * i;
      filter.setShort(at, (short) in.code());
      filter.setByte(at + 2, (byte) in.jt());
      filter.setByte(at + 3, (byte) in.jf());
      filter.setInt(at + 4, in.k());
    }
    // struct sock_fprog { unsigned short len; struct sock_filter *filter; }: the pointer sits at 8 on LP64.
    Memory fprog = new Memory(16);
    fprog.clear();
    fprog.setShort(0, (short) prog.size());
    fprog.setPointer(8, filter);
    try {
      libc.setsockopt(fd, LinuxLibC.SOL_SOCKET, LinuxLibC.SO_ATTACH_REUSEPORT_CBPF, fprog, 16);
    } catch (LastErrorException e) {
      throw new IllegalStateException("SO_ATTACH_REUSEPORT_CBPF refused: errno " + e.getErrorCode(), e);
    }
  }

  /**
   * Tries the whole sequence on a scratch loopback listener, so that a kernel or sandbox that
   * refuses it is found before any service socket exists.
   */
  void probe(int[] cpus) {
    int fd;
    try {
      fd = libc.socket(LinuxLibC.AF_INET, LinuxLibC.SOCK_STREAM, 0);
    } catch (LastErrorException e) {
      throw new IllegalStateException("socket() refused: errno " + e.getErrorCode(), e);
    }
    try {
      Memory one = new Memory(4);
      one.setInt(0, 1);
      libc.setsockopt(fd, LinuxLibC.SOL_SOCKET, LinuxLibC.SO_REUSEPORT, one, 4);
      // struct sockaddr_in for 127.0.0.1 port 0: family in host order, port and address in network order.
      Memory addr = new Memory(16);
      addr.clear();
      addr.setShort(0, (short) LinuxLibC.AF_INET);
      addr.write(4, new byte[] {127, 0, 0, 1}, 0, 4);
      libc.bind(fd, addr, 16);
      libc.listen(fd, 1);
      attach(fd, cpus);
    } catch (LastErrorException e) {
      throw new IllegalStateException("scratch reuseport listener refused: errno " + e.getErrorCode(), e);
    } finally {
      libc.close(fd);
    }
  }

  /**
   * Sockets in state LISTEN on TCP {@code port} in this network namespace, any process's, as the
   * kernel's tables count them: the members a reuseport group on the port can have.
   */
  static int listeningOn(int port) throws IOException {
    int n = 0;
    for (String table : new String[] {"/proc/net/tcp", "/proc/net/tcp6"}) {
      Path p = Path.of(table);
      if (Files.isReadable(p)) {
        n += listeningOn(Files.readAllLines(p), port);
      }
    }
    return n;
  }

  /** Sockets in state LISTEN on {@code port} in a /proc/net/tcp{,6} table. */
  static int listeningOn(List<String> table, int port) {
    String portHex = String.format(Locale.ROOT, ":%04X", port);
    int n = 0;
    for (int i = 1; i < table.size(); i++) {
      String[] f = table.get(i).trim().split("\\s+");
      if (f.length > 3 && f[1].endsWith(portHex) && f[3].equals("0A")) {
        n++;
      }
    }
    return n;
  }
}
