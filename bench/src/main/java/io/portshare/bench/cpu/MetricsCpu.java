package io.portshare.bench.cpu;

import io.portshare.kit.AdminPort;
import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;

/**
 * The CPU seconds of servers this machine cannot see in {@code /proc} (pods on other nodes), read
 * from their own {@code /metrics}: the process CPU time every portshare service exports on its admin
 * port, summed over every address a name resolves to. A headless Service's name resolves to each of
 * its ready pods. The addresses are resolved once, so the sum is over the same processes before and
 * after a cell; a server that restarts in between (its counter starts again) makes the cell unknown,
 * as an address that does not answer does. Each reading is one GET per address, which the servers pay
 * for: a few hundred microseconds of CPU each, against the seconds of a cell.
 */
public final class MetricsCpu implements CpuProbe {

  /** Micrometer's process CPU time (ProcessorMetrics), in nanoseconds. */
  static final String METRIC = "process_cpu_time_ns_total";

  /** One server's admin port, and its page's address for messages. */
  private record Server(AdminPort admin, String url) {}

  private final String name;
  private final List<Server> servers;

  private MetricsCpu(String name, List<Server> servers) {
    this.name = name;
    this.servers = servers;
  }

  /**
   * The servers at every address of {@code host} (of the first address's family: a dual-stack name
   * lists each pod twice), admin port {@code port}; each is read once here, so that a name that
   * resolves to nothing or an endpoint without the metric is refused before any load runs.
   */
  public static MetricsCpu of(String option, String host, int port) {
    InetAddress[] all;
    try {
      all = InetAddress.getAllByName(host);
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException("invalid value for " + option + ": \"" + host + ":" + port
          + "\"; unknown host");
    }
    boolean v6 = all[0] instanceof Inet6Address;
    List<Server> servers = new ArrayList<>();
    List<String> addresses = new ArrayList<>();
    for (InetAddress a : all) {
      if ((a instanceof Inet6Address) == v6) {
        String literal = v6 ? "[" + a.getHostAddress() + "]" : a.getHostAddress();
        servers.add(new Server(new AdminPort(literal, port), "http://" + literal + ":" + port + "/metrics"));
        addresses.add(a.getHostAddress());
      }
    }
    MetricsCpu probe = new MetricsCpu(host + ":" + port + " (" + String.join(", ", addresses) + ")", List.copyOf(servers));
    for (Server s : probe.servers) {
      try {
        read(s);
      } catch (IOException | RuntimeException e) {
        throw new IllegalArgumentException("invalid value for " + option + ": \"" + host + ":" + port
            + "\"; no " + METRIC + " at " + s.url() + ": " + e);
      }
    }
    return probe;
  }

  /**
   * Tries a page this many times before the cell is unknown: on a machine the load itself keeps busy,
   * a scrape at a window's edge was seen to fail once (the cell lost its server CPU) where the next
   * one answered.
   */
  static final int ATTEMPTS = 3;

  @Override
  public double seconds() {
    double nanos = 0;
    for (Server s : servers) {
      Exception last = null;
      double read = Double.NaN;
      for (int attempt = 0; attempt < ATTEMPTS && Double.isNaN(read); attempt++) {
        try {
          read = read(s);
        } catch (IOException | RuntimeException e) {
          last = e;
        }
      }
      if (Double.isNaN(read)) {
        // The cell's server CPU is then unknown, and says so, rather than passing as a zero.
        System.err.println("server CPU unknown for this cell: " + s.url() + " did not answer " + ATTEMPTS
            + " times: " + last);
        return Double.NaN;
      }
      nanos += read;
    }
    return nanos / 1e9;
  }

  /** What is read: the name, its port and the addresses it resolved to. */
  public String describe() {
    return METRIC + " of /metrics at " + name;
  }

  private static double read(Server server) throws IOException {
    return server.admin().metrics().value(METRIC)
        .orElseThrow(() -> new IOException("the metric is not on the page"));
  }
}
