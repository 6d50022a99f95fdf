package io.portshare.runtime.launch;

import io.portshare.runtime.ServiceDescriptor;
import io.portshare.runtime.StartException;
import io.portshare.runtime.config.ExitCodes;
import io.portshare.runtime.config.RuntimeSettings;
import io.portshare.runtime.net.SystemdNotify;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
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
 *       replacement still starting or warming up stops first, draining what it accepted while it
 *       warmed up (it listens on the slot's socket by then), while the child it was to replace
 *       still serves; then the supervisor lets go of its
 *       sockets and the serving children drain, each closing its socket once its accept queue
 *       is empty, so what queued there is answered rather than reset.
 * </ul>
 *
 * <p>Started with systemd socket activation ({@code LISTEN_FDS}) it serves those sockets instead of
 * binding: one per child, or one that all children share.
 */
final class Supervisor {

  private static final Logger LOG = LoggerFactory.getLogger(Supervisor.class);
  private static final Duration READY_TIMEOUT = Duration.ofSeconds(90);

  private enum Kind { EXITED, READY, START, HUP, TERM }

  private record Event(Kind kind, SupervisedChild child, long pid, int slot) {}

  /** The main class each child runs: the launcher that started this supervisor. */
  private final String mainClass;
  private final ServiceDescriptor descriptor;
  private final RuntimeSettings settings;
  private final List<String> args;
  private final Map<String, String> env;
  private final PrintStream out;
  private final BlockingQueue<Event> events = new LinkedBlockingQueue<>();
  private final Map<Long, SupervisedChild> byPid = new ConcurrentHashMap<>();
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "supervisor-timer");
    t.setDaemon(true);
    return t;
  });
  private SupervisorSockets sockets;
  private SupervisedChild[] slots;
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
    this.slots = new SupervisedChild[count];
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
    sockets = SupervisorSockets.open(settings, env, count);
    port = sockets.port();
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
      throw new StartException("cannot open the hand-over socket: " + e.getMessage(), e);
    } finally {
      timer.shutdownNow();
      sockets.closeOwn();
    }
    return exitCode;
  }

  private List<Integer> socketsOf(long pid) {
    SupervisedChild c = byPid.get(pid);
    if (c == null) {
      return null;
    }
    c.handedOver();
    return sockets.ofSlot(c.slot);
  }

  private void handle(Event e, Path handover) {
    switch (e.kind()) {
      case READY: {
        SupervisedChild c = byPid.get(e.pid());
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

  private void exited(SupervisedChild c, Path handover) {
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
    long delay = SupervisorPolicy.restartDelaySeconds(aliveSeconds, restarts[c.slot]);
    timer.schedule(() -> events.add(new Event(Kind.START, null, 0, c.slot)), delay, TimeUnit.SECONDS);
  }

  /** SIGHUP: each slot gets a new child, which must be ready before the old one drains. */
  private void roll(Path handover) throws InterruptedException {
    for (int slot = 0; slot < count && exitCode < 0; slot++) {
      SupervisedChild old = slots[slot];
      SupervisedChild fresh = start(slot, handover);
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
  private void awaitDrain(SupervisedChild old, Path handover) throws InterruptedException {
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
  private void awaitExit(SupervisedChild c) throws InterruptedException {
    c.awaitExit(drain, descriptor.name());
  }

  /** Stops every child in the order that loses nothing ({@link SupervisorStop}), then ends the supervisor's loop. */
  private void stopAll() {
    systemd.stopping("stopping " + byPid.size() + " children");
    boolean clean = new SupervisorStop(descriptor.name(), sockets, drain, READY_TIMEOUT)
        .stop(new ArrayList<>(byPid.values()), slots);
    exitCode = clean ? ExitCodes.OK : ExitCodes.SOFTWARE;
  }

  private SupervisedChild start(int slot, Path handover) {
    int admin = settings.adminPort();
    List<String> cmd = ChildCommand.of(mainClass, descriptor.name(), args, port, admin == 0 ? 0 : admin + slot);
    SupervisedChild c;
    synchronized (byPid) {
      Process p = ChildCommand.start(cmd, handover, descriptor.name() + " #" + slot);
      c = new SupervisedChild(slot, p);
      byPid.put(p.pid(), c);
    }
    c.pump(descriptor.name(), out);
    SupervisedChild started = c;
    c.process.onExit().thenRun(() -> events.add(new Event(Kind.EXITED, started, started.pid(), slot)));
    LOG.info("{} #{} started (pid {}, port {}, admin port {})", descriptor.name(), slot, c.pid(), port,
        admin == 0 ? 0 : admin + slot);
    return c;
  }

}
