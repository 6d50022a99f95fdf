package io.portshare.bench.latency;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * One CPU for the server, another for the generator (taskset -a -p: every thread of a process, and
 * the threads it makes later inherit it). Off when taskset is missing or the machine has one CPU;
 * then the report says so.
 */
final class Pinning {

  private final String serverCpu;
  private final String clientCpu;
  private final boolean on;

  Pinning(String serverCpu, String clientCpu) {
    this.serverCpu = serverCpu;
    this.clientCpu = clientCpu;
    this.on = !serverCpu.equals("none") && Runtime.getRuntime().availableProcessors() >= 2
        && io.portshare.bench.staticfiles.Tools.find("taskset").isPresent();
  }

  String describe() {
    return on ? "server on CPU " + serverCpu + ", generator on CPU " + clientCpu + " (taskset -a -p)"
        : "not pinned (taskset missing, one CPU, or --server-cpu none)";
  }

  void client() throws IOException, InterruptedException {
    pin(clientCpu, List.of(ProcessHandle.current().pid()));
  }

  void server(List<Long> pids) throws IOException, InterruptedException {
    pin(serverCpu, pids);
  }

  private void pin(String cpu, List<Long> pids) throws IOException, InterruptedException {
    if (!on) {
      return;
    }
    for (long pid : pids) {
      List<String> cmd = new ArrayList<>(List.of("taskset", "-a", "-p", "-c", cpu, Long.toString(pid)));
      Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
      if (p.waitFor() != 0) {
        throw new IOException("taskset failed for process " + pid + " (CPU " + cpu + ")");
      }
    }
  }
}
