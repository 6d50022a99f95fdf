package io.portshare.bench.ledger;

import java.io.IOException;
import java.util.List;

/**
 * Where the ledger's server and client run. The two ways answer two questions: {@code apart} pins the
 * server to CPU 1 and the client (with this driver) to CPU 0, as a dedicated server's core is kept from
 * its clients; {@code shared} pins nothing, both on the machine's cores, as on a crowded node. The same
 * server measured both ways differed by more than the goals' margins (issue 41: rpc-server 1.16x the C
 * server apart and 1.43x shared; static-server 1.22x and 0.90x nginx), so a table says which it is.
 */
public enum Pinning {
  SHARED, APART;

  static final int SERVER_CPU = 1;
  static final int CLIENT_CPU = 0;

  public static Pinning parse(String value) {
    return switch (value) {
      case "shared" -> SHARED;
      case "apart" -> APART;
      default -> throw new IllegalArgumentException("invalid value for --pinning: " + value + "; expected apart or shared");
    };
  }

  /** What a server's command starts with: taskset, apart. nginx's workers and a JVM's threads inherit it. */
  List<String> serverPrefix() {
    return this == APART ? List.of("taskset", "-c", Integer.toString(SERVER_CPU)) : List.of();
  }

  /**
   * Apart, pins every thread of this process to the client's CPU, so that the load tools it starts
   * (rpcload, wrk) inherit it; fails with one line where that cannot be done (one CPU, no taskset).
   */
  void pinThisProcess() throws IOException, InterruptedException {
    if (this != APART) {
      return;
    }
    if (Runtime.getRuntime().availableProcessors() < 2) {
      throw new IllegalArgumentException("invalid value for --pinning: apart; it needs 2 CPUs, this process may use "
          + Runtime.getRuntime().availableProcessors());
    }
    Process p = new ProcessBuilder("taskset", "-a", "-c", "-p", Integer.toString(CLIENT_CPU),
        Long.toString(ProcessHandle.current().pid())).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes()).strip();
    if (p.waitFor() != 0) {
      throw new IOException("--pinning apart: taskset could not pin the driver to CPU " + CLIENT_CPU + ": " + out);
    }
  }

  /** The raw file's header line. */
  String describe() {
    return this == APART
        ? "apart: the server on CPU " + SERVER_CPU + " (taskset -c " + SERVER_CPU + "), the client and the driver on CPU "
            + CLIENT_CPU + " (a dedicated server's core)"
        : "shared: nothing pinned, server and client on the machine's cores (a crowded node)";
  }
}
