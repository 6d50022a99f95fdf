package io.portshare.bench.seeds;

import io.portshare.bench.cpu.CpuTime;
import io.portshare.bench.results.Cell;
import io.portshare.bench.results.ClientBound;
import io.portshare.bench.results.Metric;
import io.portshare.bench.results.Round;
import io.portshare.bench.results.Row;
import io.portshare.bench.results.Table;
import io.portshare.bench.staticfiles.Peer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Seed 002: one sender and one receiver over loopback, the receiver reading 64 KB at a time from
 * 60 cached files of about 300 KB: static-server with sendfile and with its copying path, nginx with
 * {@code sendfile on} and {@code off}, each with one worker, in the seed's three pinning cases (no
 * pinning; sender and receiver on separate CPUs; both on one CPU), pinned with taskset. Throughput
 * (MB/s) and the server's CPU per GB moved.
 */
final class SendfileLoopback {

  static final String OURS_SENDFILE = "static-server sendfile";
  static final String OURS_COPY = "static-server copying";
  static final String NGINX_ON = "nginx sendfile on";
  static final String NGINX_OFF = "nginx sendfile off";
  static final List<String> COLUMNS = List.of(OURS_SENDFILE, OURS_COPY, NGINX_ON, NGINX_OFF);

  static final String FREE = "no explicit pinning";
  static final String SEPARATE = "separate CPUs";
  static final String SAME = "same CPU";
  static final List<String> PINNINGS = List.of(FREE, SEPARATE, SAME);

  static final List<Metric> METRICS = List.of(
      new Metric("megabytesPerSecond", "MB/s", 0),
      new Metric("serverCpuSecondsPerGb", "server CPU-s/GB", 3),
      new Metric("receiverCpuSecondsPerGb", "receiver CPU-s/GB", 3),
      new Metric("errors", "answers not 200", 0));

  private static final double GIB = 1024.0 * 1024 * 1024;
  private static final Pattern RESULT = Pattern.compile(
      "result bytes=(\\d+) seconds=([\\d.]+) files=(\\d+) cpu=([\\d.]+) errors=(\\d+)");

  private final Lab lab;

  SendfileLoopback(Lab lab) {
    this.lab = lab;
  }

  List<String> files() {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < lab.plan.files(); i++) {
      out.add(String.format(Locale.ROOT, "f%02d.bin", i));
    }
    return out;
  }

  Table run() throws IOException, InterruptedException {
    SeedPlan plan = lab.plan;
    Path site = lab.scratch.resolve("site-002");
    List<String> files = files();
    writeFiles(site, files, plan.fileKib() * 1024L);
    List<Peer> servers = new ArrayList<>();
    try {
      servers.add(lab.startStatic(OURS_SENDFILE, site, List.of("--instances", "1")));
      servers.add(lab.startStatic(OURS_COPY, site, List.of("--instances", "1", "--no-sendfile")));
      servers.add(lab.startNginx(NGINX_ON, site, 1, true, true));
      servers.add(lab.startNginx(NGINX_OFF, site, 1, false, true));
      for (Peer p : servers) {
        lab.check(p, site, files);
      }
      Map<String, Map<String, List<Round>>> rounds = new LinkedHashMap<>();
      for (String pin : PINNINGS) {
        Map<String, List<Round>> byServer = new LinkedHashMap<>();
        COLUMNS.forEach(c -> byServer.put(c, new ArrayList<>()));
        rounds.put(pin, byServer);
      }
      List<String> pinnings = lab.cpus >= 2 ? PINNINGS : List.of(FREE, SAME);
      for (int round = 0; round < plan.transferRounds(); round++) {
        List<String> cases = new ArrayList<>(pinnings);
        List<Peer> order = new ArrayList<>(servers);
        if (round % 2 == 1) {
          Collections.reverse(cases);
          Collections.reverse(order);
        }
        for (String pin : cases) {
          for (Peer p : order) {
            Round r = measure(p, pin, files);
            rounds.get(pin).get(p.name()).add(r);
            lab.log.printf(Locale.ROOT, "  002 round %d  %-20s %-24s %7.0f MB/s  server %6.3f CPU-s/GB%s%n", round + 1,
                pin, p.name(), r.value("megabytesPerSecond"), r.value("serverCpuSecondsPerGb"),
                r.clientBound() ? "  client-bound" : "");
          }
        }
      }
      List<Row> rows = new ArrayList<>();
      for (String pin : PINNINGS) {
        if (!pinnings.contains(pin)) {
          rows.add(new Row(pin, List.of(), "not run: one CPU"));
          continue;
        }
        List<Cell> cells = new ArrayList<>();
        COLUMNS.forEach(c -> cells.add(new Cell(c, rounds.get(pin).get(c))));
        rows.add(new Row(pin, cells));
      }
      return new Table("002", "Seed 002 on this machine: " + files.size() + " files of " + plan.fileKib()
          + " KiB, one connection, receiver reads 64 KB at a time, " + plan.transferDuration().toSeconds()
          + " s per cell, one server worker", METRICS, COLUMNS, rows, null);
    } finally {
      for (Peer p : servers) {
        p.close();
      }
    }
  }

  private Round measure(Peer p, String pin, List<String> files) throws IOException, InterruptedException {
    SeedPlan plan = lab.plan;
    String all = "0-" + (lab.cpus - 1);
    String serverCpu = pin.equals(FREE) ? all : "0";
    for (long pid : p.processes().pids()) {
      taskset(List.of("taskset", "-a", "-p", "-c", serverCpu, Long.toString(pid)));
    }
    List<String> cmd = new ArrayList<>();
    if (!pin.equals(FREE)) {
      cmd.addAll(List.of("taskset", "-c", pin.equals(SAME) ? "0" : "1"));
    }
    cmd.addAll(List.of(plan.java(), "-Xms64m", "-Xmx64m", "-cp", plan.classpath(), Receiver.class.getName(),
        "127.0.0.1", Integer.toString(p.port()), "1000", Long.toString(plan.transferDuration().toMillis())));
    cmd.addAll(files);
    Process receiver = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    CpuTime before = null;
    CpuTime after = null;
    String result = null;
    StringBuilder out = new StringBuilder();
    try (BufferedReader r = new BufferedReader(new InputStreamReader(receiver.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = r.readLine()) != null) {
        out.append(line).append('\n');
        if (line.equals("measuring")) {
          before = p.cpu();
        } else if (line.equals("done")) {
          after = p.cpu();
        } else if (line.startsWith("result ")) {
          result = line;
        }
      }
    }
    int code = receiver.waitFor();
    Matcher m = result == null ? null : RESULT.matcher(result);
    if (code != 0 || m == null || !m.find() || before == null || after == null) {
      throw new IOException("the receiver (" + String.join(" ", cmd.subList(0, Math.min(cmd.size(), 12)))
          + " ...) exited with " + code + ": " + out.toString().strip());
    }
    long bytes = Long.parseLong(m.group(1));
    double seconds = Double.parseDouble(m.group(2));
    double receiverCpu = Double.parseDouble(m.group(4));
    long errors = Long.parseLong(m.group(5));
    double server = after.minus(before).seconds();
    Map<String, Double> v = new LinkedHashMap<>();
    v.put("megabytesPerSecond", bytes / seconds / 1e6);
    v.put("errors", (double) errors);
    if (bytes > 0) {
      v.put("serverCpuSecondsPerGb", server / (bytes / GIB));
      v.put("receiverCpuSecondsPerGb", receiverCpu / (bytes / GIB));
    }
    // The receiver is one thread: it is the bottleneck when it used more CPU than the sender, or a whole core.
    boolean clientBound = ClientBound.judge(receiverCpu, server, seconds, 1, lab.cpus);
    return new Round(v, errors, clientBound);
  }

  private static void taskset(List<String> cmd) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
      throw new IOException(String.join(" ", cmd) + " failed: " + out.strip());
    }
  }

  /** {@code count} files of random bytes, written once and read once so that they sit in the page cache. */
  static void writeFiles(Path root, List<String> names, long bytes) throws IOException {
    Files.createDirectories(root);
    Lab.readable(root, true);
    SplittableRandom random = new SplittableRandom(20010202L);
    byte[] buf = new byte[(int) bytes];
    for (String name : names) {
      random.nextBytes(buf);
      Path f = root.resolve(name);
      try (OutputStream out = Files.newOutputStream(f)) {
        out.write(buf);
      }
      Lab.readable(f, false);
      Files.readAllBytes(f);
    }
  }
}
