package io.portshare.soak;

import io.portshare.kit.ProcessReadings;
import io.portshare.kit.ServiceProcess;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Many connections open at once against server processes sharing one port (SO_REUSEPORT), held by
 * client processes each on its own 127.0.0.x source address: a process may have 20,000
 * descriptors here, and one source address has about 28,000 ports toward one destination. Every
 * connection does one transaction when opened and one more when all are open (an RPC echo, or a
 * keep-alive GET of the static-server's demo index page); RSS per connection is the servers'
 * growth divided by the connections.
 */
final class ConcurrentConnections {

  /** Connections per client process: below its descriptor limit and the ports of one source address. */
  private static final int PER_HOLDER = 10_000;

  /** Which service the connections talk to. */
  enum Service {
    RPC("concurrent-connections", "hold N RPC connections, 2 transactions each"),
    STATIC("concurrent-static", "hold N HTTP keep-alive connections, 2 GETs each");

    final String scenario;
    final String what;

    Service(String scenario, String what) {
      this.scenario = scenario;
      this.what = what;
    }
  }

  private ConcurrentConnections() {}

  static ScenarioResult run(SoakConfig cfg, int total, int servers, Service service) throws Exception {
    int port = cfg.port(service == Service.RPC ? 1 : 8, 0);
    List<ServiceProcess> procs = new ArrayList<>();
    List<Process> holders = new ArrayList<>();
    try {
      for (int i = 0; i < servers; i++) {
        List<String> flags = new ArrayList<>(List.of("--port", Integer.toString(port),
            "--admin-port", Integer.toString(port + 1 + i), "--host", "127.0.0.1", "--instances", "1",
            "--mode", "reuseport"));
        // Held connections sit idle between their two transactions for as long as opening the rest takes.
        procs.add(ServiceProcess.launchJar(service == Service.RPC ? cfg.rpcJar() : cfg.staticJar(),
            SoakConfig.own("idle-timeout", service == Service.RPC ? "0s" : "1h"), flags.toArray(String[]::new)));
      }
      for (ServiceProcess p : procs) {
        p.awaitReady(Duration.ofSeconds(60));
      }
      long rss0 = rss(procs);
      // At least two client processes on two source addresses, so a short run covers the spreading too.
      int holderCount = Math.max(2, (total + PER_HOLDER - 1) / PER_HOLDER);
      int perHolder = (total + holderCount - 1) / holderCount;
      for (int h = 0; h < holderCount; h++) {
        int n = Math.min(perHolder, total - h * perHolder);
        List<String> cmd = new ArrayList<>(List.of(ServiceProcess.javaBin(), "-Xmx256m", "-cp",
            System.getProperty("java.class.path"), Holder.class.getName(), Integer.toString(port),
            "127.0.0." + (2 + h), Integer.toString(n)));
        cmd.addAll(service == Service.RPC ? List.of("rpc") : List.of("http", "/"));
        holders.add(new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start());
      }
      long held = 0;
      long failures = 0;
      for (Process h : holders) {
        long[] r = answer(h, "held");
        held += r[0];
        failures += r[1];
      }
      double open = 0;
      for (ServiceProcess p : procs) {
        open += p.metric("portshare_connections_open");
      }
      long rss1 = rss(procs);
      long rechecked = 0;
      for (Process h : holders) {
        PrintStream out = new PrintStream(h.getOutputStream(), true, StandardCharsets.UTF_8);
        out.println("check");
        long[] r = answer(h, "checked");
        rechecked += r[0];
        failures += r[1];
      }
      long perConnection = held == 0 ? 0 : (rss1 - rss0) / held;
      boolean ok = failures == 0 && held == total && rechecked == total && (long) open == total;
      String detail = String.format("%d server processes on one port, %d client processes; open per /metrics %d; "
          + "RSS %s idle -> %s, %d B per connection", servers, holders.size(), (long) open,
          ScenarioResult.mib(rss0), ScenarioResult.mib(rss1), perConnection);
      return new ScenarioResult(service.scenario, service.what, held,
          failures + (total - held), ScenarioResult.mib(rss1), detail, ok);
    } finally {
      for (Process h : holders) {
        h.getOutputStream().close();
      }
      for (Process h : holders) {
        if (!h.waitFor(30, TimeUnit.SECONDS)) {
          h.destroyForcibly();
        }
      }
      procs.forEach(ServiceProcess::close);
    }
  }

  private static long rss(List<ServiceProcess> procs) {
    long sum = 0;
    for (ServiceProcess p : procs) {
      sum += ProcessReadings.rssBytes(p.pid());
    }
    return sum;
  }

  /** Reads the holder's next "WORD OK FAILED" line. */
  private static long[] answer(Process h, String word) throws Exception {
    BufferedReader in = readers.computeIfAbsent(h,
        p -> new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8)));
    String line;
    while ((line = in.readLine()) != null) {
      String[] f = line.trim().split(" ");
      if (f.length == 3 && f[0].equals(word)) {
        return new long[] {Long.parseLong(f[1]), Long.parseLong(f[2])};
      }
    }
    throw new IOException("client process ended before saying \"" + word + "\" (exit " + h.waitFor() + ")");
  }

  private static final Map<Process, BufferedReader> readers = new ConcurrentHashMap<>();
}
