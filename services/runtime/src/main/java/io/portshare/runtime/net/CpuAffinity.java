package io.portshare.runtime.net;

import com.sun.jna.LastErrorException;
import com.sun.jna.Memory;
import com.sun.jna.NativeLong;
import java.util.Arrays;
import java.util.BitSet;

/**
 * sched_getaffinity / sched_setaffinity for the calling thread (Linux). A thread started later
 * inherits the mask of the thread that starts it, so pin only threads the caller owns.
 */
public final class CpuAffinity {

  /** glibc's cpu_set_t is 1024 bits; larger machines need a larger mask, which the kernel asks for with EINVAL. */
  private static final int MIN_MASK_BYTES = 128;
  private static final int MAX_MASK_BYTES = 1 << 16;
  private static final int EINVAL = 22;

  private final LinuxLibC libc;

  CpuAffinity(LinuxLibC libc) {
    this.libc = libc;
  }

  /** @throws UnsupportedOperationException with the reason when affinity cannot be set here */
  public static CpuAffinity load() {
    return new CpuAffinity(LinuxLibC.load());
  }

  /** The CPUs this process may run on (its main thread's mask), ascending. */
  public int[] allowedCpus() {
    return get(libc.getpid());
  }

  /** The CPUs the calling thread may run on, ascending. */
  public int[] currentThreadCpus() {
    return get(0);
  }

  /** Binds the calling thread to one CPU. */
  public void pinCurrentThread(int cpu) {
    setCurrentThread(new int[] {cpu});
  }

  /** Binds the calling thread to the given CPUs. */
  public void setCurrentThread(int[] cpus) {
    int max = Arrays.stream(cpus).max().orElseThrow(() -> new IllegalArgumentException("no CPUs"));
    int bytes = Math.max(MIN_MASK_BYTES, (max / 64 + 1) * 8);
    Memory mask = new Memory(bytes);
    mask.clear();
    for (int cpu : cpus) {
      // cpu_set_t is an array of unsigned longs; on the little-endian machines we run on, bit n is bit n%8 of byte n/8.
      mask.setByte(cpu / 8, (byte) (mask.getByte(cpu / 8) | (1 << (cpu % 8))));
    }
    try {
      libc.sched_setaffinity(0, new NativeLong(bytes), mask);
    } catch (LastErrorException e) {
      throw new IllegalStateException("sched_setaffinity(" + Arrays.toString(cpus) + ") refused: errno "
          + e.getErrorCode(), e);
    }
  }

  private int[] get(int pid) {
    for (int bytes = MIN_MASK_BYTES; bytes <= MAX_MASK_BYTES; bytes *= 2) {
      Memory mask = new Memory(bytes);
      mask.clear();
      try {
        libc.sched_getaffinity(pid, new NativeLong(bytes), mask);
      } catch (LastErrorException e) {
        if (e.getErrorCode() == EINVAL) {
          continue;
        }
        throw new IllegalStateException("sched_getaffinity refused: errno " + e.getErrorCode(), e);
      }
      // glibc returns 0, not the raw call's byte count, and clears the rest of the buffer.
      BitSet set = BitSet.valueOf(mask.getByteArray(0, bytes));
      return set.stream().toArray();
    }
    throw new IllegalStateException("sched_getaffinity: CPU mask larger than " + MAX_MASK_BYTES + " bytes");
  }
}
