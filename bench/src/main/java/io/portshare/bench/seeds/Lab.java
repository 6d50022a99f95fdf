package io.portshare.bench.seeds;

import io.portshare.bench.cpu.CpuTime;
import io.portshare.bench.server.ServerProcesses;
import io.portshare.bench.staticfiles.Loopback;
import io.portshare.bench.staticfiles.Peer;
import io.portshare.bench.staticfiles.PeerCheck;
import io.portshare.bench.staticfiles.Wrk;
import io.portshare.kit.AdminPort;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What every seed's run shares: the plan, the log, a fresh 127.0.0.x per client process, a scratch
 * directory nginx's workers can read, and the servers under test, started, checked to answer each
 * file's exact bytes and (static-server) warmed. Ports are handed out from the plan's PORT upwards,
 * four per server (its admin ports follow it), so servers of one seed can run side by side.
 */
final class Lab implements AutoCloseable {

  final SeedPlan plan;
  final PrintStream log;
  final Path scratch;
  final int cpus = Runtime.getRuntime().availableProcessors();
  private final Loopback addresses;
  private int nextPort;

  Lab(SeedPlan plan, PrintStream log) throws IOException {
    this.plan = plan;
    this.log = log;
    this.addresses = new Loopback(plan.firstAddress());
    this.nextPort = plan.port();
    Files.createDirectories(plan.scratchParent());
    this.scratch = Files.createTempDirectory(plan.scratchParent(), "portshare-seeds");
    readable(scratch, true); // nginx's workers may run as another user: not the 0700 of a temp dir
  }

  /** A fresh loopback destination (TIME_WAIT of earlier runs stays with the earlier ones). */
  String address() {
    return addresses.next();
  }

  List<String> addresses(int n) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(address());
    }
    return out;
  }

  /** A port for the next server; the three above it are its admin ports (a supervisor's children count up). */
  int port(int adminPorts) {
    int p = nextPort;
    nextPort += Math.max(4, adminPorts + 2);
    return p;
  }

  /**
   * static-server's command line on every address of {@code port}, admin on PORT+1, with {@code flags};
   * started cold ({@code --warmup 0}): its own warm-up asks for the index alone, and the seeds warm it
   * over their files with wrk ({@code --server-warmup}).
   */
  List<String> staticCommand(Path root, int port, List<String> flags) {
    List<String> cmd = new ArrayList<>();
    cmd.add(plan.java());
    cmd.addAll(plan.jvmOptions());
    cmd.addAll(List.of("-jar", plan.staticJar().toString(), "--root", root.toString(), "--host", "0.0.0.0",
        "--port", Integer.toString(port), "--admin-port", Integer.toString(port + 1), "--warmup", "0"));
    cmd.addAll(flags);
    cmd.addAll(plan.serverArgs());
    return cmd;
  }

  /** static-server in one JVM ({@code --instances}, {@code --mode}, ...), ready on its admin port. */
  Peer startStatic(String name, Path root, List<String> flags) throws IOException {
    int port = port(1);
    List<String> cmd = staticCommand(root, port, flags);
    log.println("starting " + name + ": " + String.join(" ", cmd));
    return Peer.withAdmin(name, port, cmd, plan.logDir());
  }

  /** static-server under {@code --supervise N}: N processes, a SO_REUSEPORT socket each, every child ready. */
  Peer startSupervised(String name, Path root, int processes, List<String> flags) throws IOException {
    int port = port(processes);
    List<String> f = new ArrayList<>(List.of("--supervise", Integer.toString(processes)));
    f.addAll(flags);
    List<String> cmd = staticCommand(root, port, f);
    log.println("starting " + name + ": " + String.join(" ", cmd));
    Peer p = Peer.withAdmin(name, port, cmd, plan.logDir());
    awaitChildren(p, processes);
    return p;
  }

  /**
   * static-server under {@code --supervise N} started by systemd-socket-activate: the one socket it
   * binds is handed to every child, N processes accepting on one socket (the published {@code -s}).
   */
  Peer startOneSocket(String name, Path root, int processes, List<String> flags) throws IOException {
    int port = port(processes);
    List<String> f = new ArrayList<>(List.of("--supervise", Integer.toString(processes)));
    f.addAll(flags);
    List<String> cmd = new ArrayList<>(activate(port));
    cmd.addAll(staticCommand(root, port, f));
    log.println("starting " + name + ": " + String.join(" ", cmd));
    Peer p = new Peer(name, port, ServerProcesses.startPlain(cmd, "127.0.0.1", port, plan.logDir(), logName(name)));
    awaitChildren(p, processes);
    return p;
  }

  /** systemd-socket-activate listening on every address of {@code port}, before the command it starts. */
  static List<String> activate(int port) {
    return List.of("systemd-socket-activate", "-l", "0.0.0.0:" + port);
  }

  private static void awaitChildren(Peer p, int children) throws IOException {
    try {
      p.processes().awaitAdmin(p.port() + 1, children);
    } catch (IOException | RuntimeException e) {
      p.close();
      throw e;
    }
  }

  /** nginx from the template, {@code workers} workers, on one socket or a reuseport socket per worker. */
  Peer startNginx(String name, Path root, int workers, boolean sendfile, boolean reuseport) throws IOException {
    int port = port(0);
    Path run = scratch.resolve("nginx-" + port);
    log.println("starting " + name + " on port " + port + " (" + run.resolve("nginx.conf") + ")");
    return Peer.nginx(name, plan.nginx(), plan.nginxTemplate(), run, root, port, workers, sendfile, reuseport,
        plan.logDir());
  }

  /** Before any measurement: the server answers each path with exactly the file's bytes. */
  void check(Peer p, Path root, List<String> paths) throws IOException, InterruptedException {
    PeerCheck.verify(p.name(), "127.0.0.1", p.port(), root, paths);
    log.println(p.name() + " serves the files' exact bytes");
  }

  /** The transport static-server says it runs ({@code portshare_info}), e.g. to see io_uring refused. */
  static String transport(Peer p) {
    try {
      return new AdminPort(p.port() + 1).metrics().named("portshare_info").stream()
          .map(s -> s.labels().get("transport")).findFirst().orElse("unknown");
    } catch (IOException | IllegalArgumentException e) {
      return "unknown";
    }
  }

  /**
   * Unmeasured wrk load with {@code Connection: close} on each path in turn, the plan's server warm-up
   * in all: the JIT compiles the close path before the first measured run.
   */
  void warm(Peer p, List<String> paths) throws IOException, InterruptedException {
    if (plan.serverWarmup().isZero()) {
      return;
    }
    Duration each = plan.serverWarmup().dividedBy(paths.size());
    if (each.toSeconds() < 1) {
      each = Duration.ofSeconds(1);
    }
    Wrk wrk = new Wrk(plan.wrk(), 1, 64);
    CpuTime before = p.cpu();
    long requests = 0;
    for (String path : paths) {
      requests += wrk.run(url(p, path), true, each).result().requests();
    }
    log.printf(Locale.ROOT, "warmed %s: %d requests, %.1f CPU-s%n", p.name(), requests, p.cpu().minus(before).seconds());
  }

  String url(Peer p, String path) {
    return "http://" + address() + ":" + p.port() + "/" + path;
  }

  static String logName(String name) {
    return name.replaceAll("[^A-Za-z0-9]+", "-").replaceAll("^-|-$", "");
  }

  static void readable(Path p, boolean dir) throws IOException {
    Files.setPosixFilePermissions(p, PosixFilePermissions.fromString(dir ? "rwxr-xr-x" : "rw-r--r--"));
  }

  @Override
  public void close() throws IOException {
    try (var all = Files.walk(scratch)) {
      for (Path p : all.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
