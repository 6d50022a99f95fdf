package io.portshare.soak;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A network namespace of our own (ip netns; needs root): loopback only, with
 * net.ipv4.tcp_migrate_req set as asked, so a scenario can run with and without migration
 * whatever the host has, and touch nothing of the host's network.
 */
final class NetNamespace implements AutoCloseable {

  final String name;

  private NetNamespace(String name) {
    this.name = name;
  }

  static NetNamespace create(String name, boolean migrate) throws IOException, InterruptedException {
    // Names carry our pid: one left by a killed process that had this pid before us is stale.
    if (Files.exists(Path.of("/run/netns", name))) {
      run("ip", "netns", "del", name);
    }
    run("ip", "netns", "add", name);
    NetNamespace ns = new NetNamespace(name);
    try {
      run("ip", "netns", "exec", name, "ip", "link", "set", "lo", "up");
      run("ip", "netns", "exec", name, "sysctl", "-q", "-w", "net.ipv4.tcp_migrate_req=" + (migrate ? 1 : 0));
    } catch (IOException | RuntimeException e) {
      ns.close();
      throw e;
    }
    return ns;
  }

  /** True when this process may create namespaces (root, ip(8) present). */
  static boolean available() {
    try {
      NetNamespace ns = create("portshare-probe-" + ProcessHandle.current().pid(), true);
      ns.close();
      return true;
    } catch (IOException | RuntimeException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** The command, run inside this namespace. */
  List<String> wrap(List<String> command) {
    List<String> c = new ArrayList<>(List.of("ip", "netns", "exec", name));
    c.addAll(command);
    return c;
  }

  private static void run(String... cmd) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes());
    if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
      throw new IOException(String.join(" ", cmd) + " failed: " + out.trim());
    }
  }

  @Override
  public void close() {
    try {
      run("ip", "netns", "del", name);
    } catch (IOException e) {
      System.err.println("soak: could not delete network namespace " + name + ": " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
