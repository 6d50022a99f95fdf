package io.portshare.bench.ledger;

import io.portshare.bench.cpu.CpuTime;
import io.portshare.bench.server.ServerProcesses;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * A server of the ledger as started: its row name, what it speaks, whether it is a JVM (whose
 * allocations and GC the JDK's tools beside its {@code java} launcher read), its port, its processes
 * and which columns it can answer (a file server has no dynamic route).
 */
public record Contender(String name, Kind kind, boolean jvm, String java, int port, ServerProcesses processes,
    Predicate<Workload> serving) implements AutoCloseable {

  public enum Kind { RPC, HTTP }

  /** Whether this server can answer the column at all; a column it cannot is left out of its row, not measured. */
  boolean serves(Workload w) {
    return serving.test(w);
  }

  /** User and system CPU of the server's processes and their children (nginx's worker) so far. */
  public CpuTime cpu() {
    return processes.cpu();
  }

  /** Every process of the server, children included (nginx's master and worker). */
  public List<Long> pids() {
    List<Long> out = new ArrayList<>();
    for (ProcessHandle h : processes.handles()) {
      out.add(h.pid());
      h.descendants().forEach(d -> out.add(d.pid()));
    }
    return out;
  }

  /** The JDK tools of this server's own JVM (jcmd and jstat of one release read the JVMs of that release). */
  JvmProbe probe() {
    return new JvmProbe(java);
  }

  /** The JVM's process (the one jcmd and jstat speak to). */
  long mainPid() {
    return processes.handles().get(0).pid();
  }

  /** Resident memory of all the server's processes, in bytes ({@code VmRSS} of /proc/PID/status). */
  long residentBytes() throws IOException {
    long sum = 0;
    for (long pid : pids()) {
      for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
        if (line.startsWith("VmRSS:")) {
          sum += Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
        }
      }
    }
    return sum;
  }

  /** Open file descriptors of all the server's processes. */
  int openFiles() throws IOException {
    int n = 0;
    for (long pid : pids()) {
      try (var fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
        n += (int) fds.count();
      }
    }
    return n;
  }

  @Override
  public void close() {
    processes.close();
  }
}
