package io.portshare.runtime.net;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.Future;
import io.vertx.core.Vertx;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.transport.Transport;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code pinned} scaling mode on top of {@code reuseport}: instance {@code i}'s event loop is
 * bound to the i-th CPU the process may use, and a BPF program on the reuseport group hands each
 * new connection to the listener of the CPU that received it.
 *
 * <p>By default the event loop accepts its own connections (--accept-on-event-loop), so one
 * pinned thread accepts, reads and writes. With --accept-on-event-loop=false Vert.x's acceptor
 * thread calls accept(2) and hands the connection over; it is pinned to the same CPU, so that
 * the accept stays CPU-local too.
 *
 * <p>Every step that can be refused is tried first ({@link #prepare}: the start's plan then runs
 * reuseport instead); whatever still fails later falls back to plain reuseport with one WARN line,
 * the threads unpinned again. Never a crash.
 */
public final class PinnedMode {

  private static final Logger LOG = LoggerFactory.getLogger(PinnedMode.class);
  private static final long PIN_TIMEOUT_SECONDS = 10;

  private final CpuAffinity affinity;
  private final ReuseportSteering steering;
  private final int[] allowed;
  private final int[] cpus;
  private final List<Vertx> pinned = new ArrayList<>();
  private String failure;

  private PinnedMode(CpuAffinity affinity, ReuseportSteering steering, int[] allowed, int[] cpus) {
    this.affinity = affinity;
    this.steering = steering;
    this.allowed = allowed;
    this.cpus = cpus;
  }

  /**
   * The pinned layout for {@code instances}, each step that can be refused tried once; throws, with
   * the reason in its message, when it cannot work here (a LinkageError where JNA cannot load).
   */
  public static PinnedMode prepare(Transport transport, int instances) {
    // The listeners' fds come from Listeners and the threads are pinned from inside their loops,
    // so epoll and io_uring both work; NIO has no Linux socket options to steer with.
    if (!TransportChoice.isLinuxNative(transport)) {
      throw new UnsupportedOperationException("it needs a native Linux transport (epoll, io_uring), this runs "
          + TransportChoice.name(transport));
    }
    LinuxLibC libc = LinuxLibC.load();
    CpuAffinity affinity = new CpuAffinity(libc);
    int[] allowed = affinity.allowedCpus();
    if (instances > allowed.length) {
      throw new UnsupportedOperationException(instances + " instances but only " + allowed.length
          + " CPUs allowed (" + describe(allowed) + ")");
    }
    int[] cpus = Arrays.copyOf(allowed, instances);
    // Setting the calling thread's mask to what it already is changes nothing but proves the call is allowed.
    affinity.setCurrentThread(affinity.currentThreadCpus());
    ReuseportSteering steering = new ReuseportSteering(libc);
    steering.probe(cpus);
    return new PinnedMode(affinity, steering, allowed, cpus);
  }

  /** Pins the event loop and acceptor threads of the single-event-loop Vert.x of instance {@code index}. */
  public void pin(Vertx vertx, int index) {
    if (failure != null) {
      return;
    }
    pinned.add(vertx);
    VertxInternal vx = (VertxInternal) vertx;
    // A new thread inherits the mask of the thread that starts it, and pools start theirs on first
    // use, from the submitting event loop: start them all now, from this unpinned thread, so that
    // blocking work stays free to run on any CPU.
    for (ExecutorService pool : List.of(vx.workerPool().executor(), vx.internalWorkerPool().executor())) {
      if (pool instanceof ThreadPoolExecutor) {
        ((ThreadPoolExecutor) pool).prestartAllCoreThreads();
      }
    }
    try {
      setThreads(vertx, new int[] {cpus[index]});
    } catch (RuntimeException e) {
      fail("pinning instance " + index + " to CPU " + cpus[index] + ": " + e.getMessage());
    }
  }

  /**
   * Attaches the steering program once all listeners are bound on {@code port}, in CPU order.
   * Returns false (after one WARN line, threads unpinned) when the mode has to fall back.
   */
  public boolean steer(Listeners listeners, int port, int instances) {
    if (failure == null) {
      try {
        // The program numbers the group's members, so the group must be exactly our listeners, in
        // CPU order: another process or socket on the port (e.g. one JVM per CPU) would shift them.
        List<Integer> fds = listeners.fds(port);
        int sockets = ReuseportSteering.listeningOn(port);
        if (fds.size() != instances || sockets != instances) {
          throw new IllegalStateException(sockets + " sockets listen on the port, " + fds.size()
              + " of them this process's; steering needs exactly its " + instances + " listeners");
        }
        steering.attach(fds.get(0), cpus);
        LOG.info("pinned: event loops 0..{} on CPUs {}, connections steered by CPU", instances - 1, describe(cpus));
      } catch (Exception e) {
        fail("steering connections on port " + port + ": " + e.getMessage());
      }
    }
    return failure == null;
  }

  /** {@code portshare_event_loop_cpu{loop}}: the CPU each event loop is bound to. */
  public void registerMeters(MeterRegistry registry, String service) {
    for (int i = 0; i < cpus.length; i++) {
      int cpu = cpus[i];
      Gauge.builder("portshare.event.loop.cpu", () -> cpu)
          .description("The CPU each event loop (and its acceptor) is pinned to")
          .tag("service", service)
          .tag("loop", Integer.toString(i))
          .register(registry);
    }
  }

  /** Why the mode fell back once prepared (a pin or the steering refused), or null while it holds. */
  public String failure() {
    return failure;
  }

  private void fail(String why) {
    failure = why;
    LOG.warn("mode pinned failed ({}); running as reuseport", why);
    for (Vertx v : pinned) {
      try {
        setThreads(v, allowed);
      } catch (RuntimeException e) {
        LOG.warn("could not unpin event loop threads: {}", e.getMessage());
      }
    }
  }

  private void setThreads(Vertx vertx, int[] mask) {
    VertxInternal vx = (VertxInternal) vertx;
    List<Future<?>> done = new ArrayList<>();
    for (EventLoopGroup group : List.of(vx.eventLoopGroup(), vx.acceptorEventLoopGroup())) {
      for (EventExecutor loop : group) {
        done.add(loop.submit(() -> affinity.setCurrentThread(mask)));
      }
    }
    for (Future<?> f : done) {
      if (!f.awaitUninterruptibly(PIN_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        throw new IllegalStateException("event loop did not run the pinning task");
      }
      if (!f.isSuccess()) {
        throw new IllegalStateException(f.cause().getMessage(), f.cause());
      }
    }
  }

  static String describe(int[] cpus) {
    StringBuilder sb = new StringBuilder();
    for (int c : cpus) {
      sb.append(sb.length() == 0 ? "" : ",").append(c);
    }
    return sb.toString();
  }
}
