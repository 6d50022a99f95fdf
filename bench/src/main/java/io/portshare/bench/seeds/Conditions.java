package io.portshare.bench.seeds;

import io.portshare.runtime.net.FileLimit;
import java.util.ArrayList;
import java.util.List;

/**
 * For each seed, what this machine cannot reproduce of the published conditions (separate machines
 * and NICs, CPUs, worker counts) and how the run was scaled instead, from the plan and the CPUs.
 */
final class Conditions {

  private Conditions() {}

  /** This process's hard open-files limit, which the JVMs it starts raise their soft limit to; "an unknown number of" where unread. */
  static String descriptorLimit() {
    String[] limit = FileLimit.read();
    if (limit == null) {
      return "an unknown number of";
    }
    return limit[1].equals("unlimited") ? "any number of" : String.format("%,d", Long.parseLong(limit[1]));
  }

  static String of(String seed, SeedPlan plan, int cpus) {
    String shared = "client and servers share " + cpus + " CPU" + (cpus == 1 ? "" : "s") + " over loopback";
    return switch (seed) {
      case "000" -> "published: two client machines (15K connections each) and a 2 x 8-core (HT) server with "
          + "2 x 82599 10 GbE, nginx 24 workers, 2-minute runs; here " + shared + ", " + plan.wrkProcesses()
          + " wrk processes (" + plan.connections() + " connections in all), " + plan.workers()
          + " workers per server, " + plan.closeDuration().toSeconds() + " s runs; static-server runs as "
          + plan.workers() + " processes under the supervisor, since one process may hold " + descriptorLimit()
          + " descriptors at most here (its open files hard limit, read at this run)";
      case "001" -> "published: 16 parallel httperf on a 4-core (HT) client against nginx on another 4-core (HT) "
          + "machine over the network; here " + plan.httperfs() + " parallel httperf (2 per CPU), " + shared + ", "
          + plan.sessionRounds() + " runs";
      case "002" -> {
        List<String> s = new ArrayList<>();
        s.add("published: dual 500 MHz Pentium II, sendfile() of whole files against send() in 8 KB chunks; here "
            + shared);
        s.add("sender pinned to CPU 0 and receiver to CPU " + (cpus >= 2 ? "1" : "0 (one CPU: no separate case)")
            + " with taskset");
        s.add("static-server's copying path (--no-sendfile) reads each file 64 KiB at a time and writes what it read, "
            + "and nginx with sendfile off writes from its output buffers (2 x 32 KiB by default): neither writes 8 KB "
            + "chunks as the seed's send() did");
        s.add("the published NFS column is left out");
        yield String.join("; ", s);
      }
      case "003" -> {
        List<Integer> over = plan.rpcWorkers().stream().filter(w -> w > cpus).toList();
        yield "published: 2 x 8 cores (HT), a Chelsio T420 NIC, the client elsewhere, each worker bound to its own CPU; "
            + "here " + shared + "; " + (over.isEmpty() ? "no row has more workers than CPUs"
            : "rows of " + over + " workers run " + "on " + cpus + " CPUs (oversubscribed: the rows say so)")
            + "; -s is N processes accepting on one socket (socket activation and the supervisor hand the same socket "
            + "to each)";
      }
      case "004" -> "published: httperf on a separate machine over 1 Gb Ethernet (e1000) at 3,000 connections/s, a "
          + "trivial epoll web server against a kevent one; here " + shared + ", static-server on epoll against "
          + "io_uring (the newer mechanism today), " + plan.workers() + " workers each, loaded by this bench's "
          + "open-loop generator (" + plan.overload().clientLoops() + " event loop(s)) at " + plan.overload().shares()
          + "% of the faster transport's closed-loop maximum measured in the same run, " + plan.overload().rounds()
          + " round(s)";
      default -> throw new IllegalArgumentException("no seed " + seed);
    };
  }
}
