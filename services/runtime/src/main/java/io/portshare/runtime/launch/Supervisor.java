package io.portshare.runtime.launch;

import com.sun.jna.LastErrorException;
import io.portshare.runtime.ServiceDescriptor;
import io.portshare.runtime.ServiceRuntime;
import io.portshare.runtime.config.ExitCodes;
import io.portshare.runtime.config.RuntimeSettings;
import io.portshare.runtime.config.UsageException;
import io.portshare.runtime.net.InheritedSockets;
import io.portshare.runtime.net.Listeners;
import io.portshare.runtime.net.RawListeners;
import io.portshare.runtime.net.SystemdNotify;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code --supervise N}: N processes of the service on one port, on listening sockets this process
 * binds once (a SO_REUSEPORT group, one per child) and never closes while it runs, as nginx's master,
 * HAProxy's master and systemd's .socket units do. Each child ({@code --instances 1 --mode reuseport},
 * admin port {@code --admin-port + i}) takes its socket over the hand-over socket ({@link Handover}).
 *
 * <ul>
 *   <li>A child that dies is started again on the same socket; what the kernel queued on it while no
 *       one accepted waits for the new child instead of being reset.
 *   <li>SIGHUP replaces every child, one at a time: the new one serves the same socket and reports
 *       ready, then the old one drains (it stops accepting, finishes its connections, exits).
 *   <li>SIGTERM or SIGINT drains every child and exits 0 when all exited 0, whenever it comes: a
 *       replacement still starting or warming up stops first, without a drain it does not need,
 *       while the child it was to replace still serves; then the supervisor lets go of its
 *       sockets and the serving children drain, each closing its socket once its accept queue
 *       is empty, so what queued there is answered rather than reset.
 * </ul>
 *
 * <p>Started with systemd socket activation ({@code LISTEN_FDS}) it serves those sockets instead of
 * binding: one per child, or one that all children share.
 */
final class Supervisor {

  private static final Logger LOG = LoggerFactory.getLogger(Supervisor.class);
  /** Flags the supervisor sets for each child itself: the launcher's --service and the runtime's child flags. */
  private static final Set<String> CHILD_FLAGS = childFlagNames();
  private static final Duration READY_TIMEOUT = Duration.ofSeconds(90);

  private enum Kind { EXITED, READY, START, HUP, TERM }

  private record Event(Kind kind, Child child, long pid, int slot) {}

  /** The main class each child runs: the launcher that started this supervisor. */
  private final String mainClass;
  private final ServiceDescriptor descriptor;
  private final RuntimeSettings settings;
  private final List<String> args;
  private final Map<String, String> env;
  private final PrintStream out;
  private final BlockingQueue<Event> events = new LinkedBlockingQueue<>();
  private final Map<Long, Child> byPid = new ConcurrentHashMap<>();
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "supervisor-timer");
    t.setDaemon(true);
    return t;
  });
  private final List<List<Integer>> slotSockets = new ArrayList<>();
  private final List<Integer> ownSockets = new ArrayList<>();
  private Child[] slots;
  private final int[] restarts;
  private final int count;
  private final Duration drain;
  private int port;
  private boolean rollPending;
  private int exitCode = -1;
  private final SystemdNotify systemd;
  private boolean toldReady;

  private Supervisor(String mainClass, ServiceDescriptor descriptor, RuntimeSettings settings, List<String> args,
      Map<String, String> env, PrintStream out) {
    this.mainClass = mainClass;
    this.descriptor = descriptor;
    this.settings = settings;
    this.args = args;
    this.env = env;
    this.out = out;
    this.count = settings.supervise();
    this.slots = new Child[count];
    this.restarts = new int[count];
    this.drain = settings.drainTimeout();
    this.systemd = SystemdNotify.fromEnvironment(env, ProcessHandle.current().pid());
  }

  /** Runs {@code settings.supervise()} children until SIGTERM or SIGINT; returns the exit code. */
  static int run(String mainClass, ServiceDescriptor descriptor, RuntimeSettings settings, List<String> args,
      Map<String, String> env, PrintStream out) throws InterruptedException {
    return new Supervisor(mainClass, descriptor, settings, args, env, out).run();
  }

  private int run() throws InterruptedException {
    openSockets();
    Signals.on("HUP", () -> events.add(new Event(Kind.HUP, null, 0, -1)));
    Signals.on("TERM", () -> events.add(new Event(Kind.TERM, null, 0, -1)));
    Signals.on("INT", () -> events.add(new Event(Kind.TERM, null, 0, -1)));
    try (HandoverServer handover = new HandoverServer(this::socketsOf,
        pid -> events.add(new Event(Kind.READY, null, pid, -1)))) {
      for (int i = 0; i < count; i++) {
        slots[i] = start(i, handover.path());
      }
      Duration every = systemd.watchdogInterval();
      if (!every.isZero()) {
        // The supervisor's own loop has no event loop to watch; each child has its liveness probe.
        timer.scheduleAtFixedRate(systemd::watchdog, 0, every.toMillis(), TimeUnit.MILLISECONDS);
      }
      while (exitCode < 0) {
        handle(events.take(), handover.path());
        if (rollPending && exitCode < 0) {
          rollPending = false;
          roll(handover.path());
        }
      }
    } catch (IOException e) {
      throw new ServiceRuntime.StartException("cannot open the hand-over socket: " + e.getMessage(), e);
    } finally {
      timer.shutdownNow();
      ownSockets.forEach(RawListeners::close);
    }
    return exitCode;
  }

  /** The sockets systemd gave this process, else a new SO_REUSEPORT group of one per child. */
  private void openSockets() {
    InheritedSockets inherited = InheritedSockets.fromListenFds(env, ProcessHandle.current().pid());
    int wantedPort = settings.port();
    if (!inherited.isEmpty()) {
      if (inherited.size() != count && inherited.size() != 1) {
        throw new UsageException(inherited.source() + " gives " + inherited.size() + " listening sockets but "
            + "--supervise is " + count + "; expected one per child or one for all");
      }
      if (wantedPort != 0 && wantedPort != inherited.port()) {
        throw new UsageException(inherited.source() + " gives sockets listening on port " + inherited.port()
            + " but --port is " + wantedPort + " (" + settings.portSource() + "); give --port "
            + inherited.port() + " or 0");
      }
      for (int i = 0; i < count; i++) {
        slotSockets.add(List.of(inherited.fd(inherited.size() == 1 ? 0 : i)));
      }
      port = inherited.port();
      LOG.info("supervisor: {} children on {} inherited socket(s) on port {} from {}", count, inherited.size(), port,
          inherited.source());
      return;
    }
    InetAddress host = settings.hostAddress();
    port = wantedPort;
    for (int i = 0; i < count; i++) {
      int fd;
      try {
        fd = RawListeners.bindReuseport(new InetSocketAddress(host, port), Listeners.ACCEPT_BACKLOG);
      } catch (LastErrorException e) {
        throw new ServiceRuntime.StartException("cannot listen on port " + port + ": errno " + e.getErrorCode()
            + (e.getErrorCode() == 98 ? " (address already in use)" : ""), e);
      }
      ownSockets.add(fd);
      slotSockets.add(List.of(fd));
      port = RawListeners.localAddress(fd).getPort();
    }
    LOG.info("supervisor: {} SO_REUSEPORT listening sockets on {}:{}, one per child", count, host.getHostAddress(),
        port);
  }

  private List<Integer> socketsOf(long pid) {
    Child c = byPid.get(pid);
    if (c == null) {
      return null;
    }
    c.handedOver();
    return slotSockets.get(c.slot);
  }

  private void handle(Event e, Path handover) {
    switch (e.kind()) {
      case READY: {
        Child c = byPid.get(e.pid());
        if (c != null && !c.ready) {
          c.ready = true;
          LOG.info("{} #{} (pid {}) ready", descriptor.name(), c.slot, c.pid());
          if (!toldReady && Arrays.stream(slots).allMatch(s -> s != null && s.ready)) {
            toldReady = true;
            systemd.ready(count + " children serving port " + port);
          }
        }
        break;
      }
      case EXITED:
        exited(e.child(), handover);
        break;
      case START:
        if (slots[e.slot()] == null) {
          slots[e.slot()] = start(e.slot(), handover);
        }
        break;
      case HUP:
        LOG.info("supervisor: SIGHUP: replacing {} children one at a time", count);
        rollPending = true;
        break;
      default:
        if (exitCode < 0) {
          stopAll();
        }
    }
  }

  private void exited(Child c, Path handover) {
    byPid.remove(c.pid());
    int code = c.process.exitValue();
    if (c.retiring) {
      LOG.info("{} #{} (pid {}) drained and exited with code {}", descriptor.name(), c.slot, c.pid(), code);
      return;
    }
    if (slots[c.slot] != c) {
      return;
    }
    slots[c.slot] = null;
    if (code == ExitCodes.USAGE) {
      LOG.error("{} #{} exited with code 2 (bad usage or config); stopping all", descriptor.name(), c.slot);
      stopAll();
      exitCode = ExitCodes.USAGE;
      return;
    }
    restarts[c.slot]++;
    long aliveSeconds = (System.nanoTime() - c.startedAt) / 1_000_000_000L;
    LOG.warn("{} #{} (pid {}) died with code {} after {} s; restarting on the same socket (restart {})",
        descriptor.name(), c.slot, c.pid(), code, aliveSeconds, restarts[c.slot]);
    // One that dies at once again and again is not restarted in a hot loop.
    long delay = aliveSeconds < 2 && restarts[c.slot] > 3 ? 2 : 0;
    timer.schedule(() -> events.add(new Event(Kind.START, null, 0, c.slot)), delay, TimeUnit.SECONDS);
  }

  /** SIGHUP: each slot gets a new child, which must be ready before the old one drains. */
  private void roll(Path handover) throws InterruptedException {
    for (int slot = 0; slot < count && exitCode < 0; slot++) {
      Child old = slots[slot];
      Child fresh = start(slot, handover);
      long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
      while (!fresh.ready && fresh.process.isAlive() && exitCode < 0 && System.nanoTime() < deadline) {
        Event e = events.poll(100, TimeUnit.MILLISECONDS);
        if (e != null && e.kind() == Kind.EXITED && e.child() == fresh) {
          byPid.remove(fresh.pid());
        } else if (e != null) {
          handleDuringRoll(e, handover);
        }
      }
      if (exitCode >= 0) {
        // Stopped meanwhile: stopAll stopped the replacement with the rest.
        return;
      }
      if (!fresh.ready) {
        LOG.error("{} #{}: the replacement (pid {}) {}; keeping pid {}, replacement stopped", descriptor.name(), slot,
            fresh.pid(), fresh.process.isAlive() ? "was not ready in " + READY_TIMEOUT.toSeconds() + " s"
                : "exited with code " + fresh.process.exitValue(), old == null ? "-" : Long.toString(old.pid()));
        fresh.retiring = true;
        fresh.process.destroyForcibly();
        return;
      }
      slots[slot] = fresh;
      if (old != null) {
        old.retiring = true;
        old.terminate();
        LOG.info("{} #{}: pid {} serves the socket; pid {} drains", descriptor.name(), slot, fresh.pid(), old.pid());
        awaitDrain(old, handover);
      }
    }
    if (exitCode < 0) {
      LOG.info("supervisor: every child replaced");
    }
  }

  /** Waits for a replaced child to drain, handling what comes meanwhile (a SIGTERM stops everything at once). */
  private void awaitDrain(Child old, Path handover) throws InterruptedException {
    long deadline = System.nanoTime() + drain.toNanos() + TimeUnit.SECONDS.toNanos(30);
    while (old.process.isAlive() && exitCode < 0) {
      if (System.nanoTime() > deadline) {
        awaitExit(old);
        return;
      }
      Event e = events.poll(100, TimeUnit.MILLISECONDS);
      if (e != null) {
        handleDuringRoll(e, handover);
      }
    }
  }

  private void handleDuringRoll(Event e, Path handover) {
    if (e.kind() == Kind.HUP) {
      LOG.info("supervisor: SIGHUP during a replacement: another round follows this one");
      rollPending = true;
    } else {
      handle(e, handover);
    }
  }

  /** Waits for a retiring child to finish its drain; SIGKILL if it overstays. */
  private void awaitExit(Child c) throws InterruptedException {
    if (!c.process.waitFor(drain.toMillis() + 30_000, TimeUnit.MILLISECONDS)) {
      LOG.warn("{} #{} (pid {}) did not exit after its drain; killing it", descriptor.name(), c.slot, c.pid());
      c.process.destroyForcibly();
      c.process.waitFor();
    }
  }

  /**
   * Stops every child, in the order that loses nothing: replacements still starting or warming up
   * first, while the child each was to replace still serves its socket; then, once every child left
   * has its sockets, the supervisor closes its own, and the rest drain. Each of those is then the
   * last to hold its socket and closes it once its accept queue is empty.
   */
  private void stopAll() {
    systemd.stopping("stopping " + byPid.size() + " children");
    List<Child> all = new ArrayList<>(byPid.values());
    all.sort(Comparator.comparingInt((Child c) -> c.slot).thenComparingLong(Child::pid));
    LOG.info("supervisor: stopping {} children: {}", all.size(),
        all.stream().map(c -> "#" + c.slot + " pid " + c.pid() + " " + c.state()).collect(Collectors.joining(", ")));
    List<Child> replacements = all.stream().filter(this::isReplacement).collect(Collectors.toList());
    List<Child> rest = new ArrayList<>(all);
    rest.removeAll(replacements);
    boolean clean = true;
    try {
      replacements.forEach(Child::stop);
      clean = awaitAll(replacements);
      if (!ownSockets.isEmpty()) {
        // A child not yet started has not taken its socket yet: it must, before the supervisor lets go.
        awaitHandedOver(rest);
        ownSockets.forEach(RawListeners::close);
        ownSockets.clear();
        LOG.info("supervisor: listening sockets left to the children, which close them as they drain");
      }
      rest.forEach(Child::stop);
      clean &= awaitAll(rest);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      clean = false;
    }
    LOG.info("supervisor: all stopped");
    exitCode = clean ? ExitCodes.OK : ExitCodes.SOFTWARE;
  }

  /** A child started to replace the one serving its slot, and not ready yet. */
  private boolean isReplacement(Child c) {
    Child serving = slots[c.slot];
    return !c.ready && !c.retiring && serving != null && serving != c && serving.ready && serving.process.isAlive();
  }

  /** Waits for each to exit (killing one that overstays its drain); true when all exited 0. */
  private boolean awaitAll(List<Child> children) throws InterruptedException {
    boolean clean = true;
    for (Child c : children) {
      awaitExit(c);
      int code = c.process.exitValue();
      LOG.info("{} #{} (pid {}) exited with code {}", descriptor.name(), c.slot, c.pid(), code);
      clean &= code == 0;
    }
    return clean;
  }

  /** Waits until each live child has taken its sockets; one that does not in time is killed. */
  private void awaitHandedOver(List<Child> children) throws InterruptedException {
    long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
    for (Child c : children) {
      while (!c.isHandedOver() && c.process.isAlive()) {
        if (System.nanoTime() > deadline) {
          LOG.warn("{} #{} (pid {}) did not ask for its sockets; killing it", descriptor.name(), c.slot, c.pid());
          c.process.destroyForcibly();
          c.process.waitFor();
          break;
        }
        c.process.waitFor(50, TimeUnit.MILLISECONDS);
      }
    }
  }

  private Child start(int slot, Path handover) {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
    cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), mainClass,
        "--service", descriptor.name()));
    cmd.addAll(childArgs());
    int admin = settings.adminPort();
    cmd.addAll(RuntimeSettings.childFlags(port, admin == 0 ? 0 : admin + slot));
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
    // The sockets, and systemd's notifications, are the supervisor's, not its children's.
    pb.environment().keySet().removeIf(k -> k.startsWith("LISTEN_") || k.equals("NOTIFY_SOCKET")
        || k.startsWith("WATCHDOG_"));
    pb.environment().put(Handover.ENV, handover.toString());
    Child c;
    synchronized (byPid) {
      Process p;
      try {
        p = pb.start();
      } catch (IOException e) {
        throw new ServiceRuntime.StartException("cannot start " + descriptor.name() + " #" + slot + ": " + e, e);
      }
      c = new Child(slot, p);
      byPid.put(p.pid(), c);
    }
    c.pump(descriptor.name(), out);
    Child started = c;
    c.process.onExit().thenRun(() -> events.add(new Event(Kind.EXITED, started, started.pid(), slot)));
    LOG.info("{} #{} started (pid {}, port {}, admin port {})", descriptor.name(), slot, c.pid(), port,
        admin == 0 ? 0 : admin + slot);
    return c;
  }

  private static Set<String> childFlagNames() {
    Set<String> names = new HashSet<>(Set.of("service"));
    RuntimeSettings.childFlags(0, 0).stream().filter(f -> f.startsWith("--")).forEach(f -> names.add(f.substring(2)));
    return Set.copyOf(names);
  }

  /** The supervisor's own flags, but those it sets for each child. */
  private List<String> childArgs() {
    List<String> kept = new ArrayList<>();
    for (int i = 0; i < args.size(); i++) {
      String a = args.get(i);
      String name = a.startsWith("--") ? a.substring(2).split("=", 2)[0] : "";
      if (CHILD_FLAGS.contains(name)) {
        if (!a.contains("=")) {
          i++;
        }
        continue;
      }
      kept.add(a);
    }
    return kept;
  }

  /** One supervised process serving the socket of its slot. */
  private static final class Child {
    final int slot;
    final Process process;
    final long startedAt = System.nanoTime();
    volatile boolean ready;
    volatile boolean retiring;
    /** It asked for its sockets: its stop handler is set, a SIGTERM stops it cleanly. */
    private boolean handedOver;
    /** A stop asked for before it had its handler, sent once it asks for its sockets. */
    private boolean stopPending;

    Child(int slot, Process process) {
      this.slot = slot;
      this.process = process;
    }

    synchronized void handedOver() {
      handedOver = true;
      if (stopPending) {
        sigterm();
      }
    }

    synchronized boolean isHandedOver() {
      return handedOver;
    }

    /**
     * SIGTERM, now or, for a child whose JVM has not yet set its handler (it has not asked for its
     * sockets), as soon as it asks: the JVM's own handling before that would exit 143 unclean.
     */
    synchronized void terminate() {
      if (handedOver) {
        sigterm();
      } else {
        stopPending = true;
      }
    }

    /** Through its handle: Process.destroy() would also close the pipe its drain logs to. */
    private void sigterm() {
      process.toHandle().destroy();
    }

    /** Stops it, unless it was stopped already (a replaced one draining). */
    void stop() {
      if (!retiring) {
        retiring = true;
        terminate();
      }
    }

    synchronized String state() {
      return retiring ? "draining" : ready ? "serving" : handedOver ? "starting or warming up"
          : "starting (no sockets yet)";
    }

    long pid() {
      return process.pid();
    }

    /** The child's output, each line prefixed with its service and slot. */
    void pump(String service, PrintStream out) {
      String prefix = "[" + service + "#" + slot + "] ";
      Thread t = new Thread(() -> {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
            StandardCharsets.UTF_8))) {
          for (String line; (line = in.readLine()) != null; ) {
            out.println(prefix + line);
          }
        } catch (IOException e) {
          // The child is gone; its exit code says the rest.
        }
      }, "supervisor-output-" + process.pid());
      t.setDaemon(true);
      t.start();
    }
  }
}
