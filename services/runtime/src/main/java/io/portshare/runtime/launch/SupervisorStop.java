package io.portshare.runtime.launch;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A supervisor's stop (SIGTERM, SIGINT, a child's bad usage): its children stopped in the order
 * that loses nothing, blocking until all have exited.
 */
final class SupervisorStop {

  private static final Logger LOG = LoggerFactory.getLogger(SupervisorStop.class);

  private final String service;
  private final SupervisorSockets sockets;
  private final Duration drain;
  private final Duration readyTimeout;

  /**
   * @param drain each child's --drain-timeout: one that has not exited 30 s past it is killed
   * @param readyTimeout how long a child not yet started may take to ask for its sockets
   */
  SupervisorStop(String service, SupervisorSockets sockets, Duration drain, Duration readyTimeout) {
    this.service = service;
    this.sockets = sockets;
    this.drain = drain;
    this.readyTimeout = readyTimeout;
  }

  /**
   * Stops every child, in the order that loses nothing: replacements still starting or warming up
   * first, while the child each was to replace still serves its socket; then, once every child left
   * has its sockets, the supervisor closes its own, and the rest drain. Each of those is then the
   * last to hold its socket and closes it once its accept queue is empty.
   */
  boolean stop(List<SupervisedChild> all, SupervisedChild[] slots) {
    all.sort(Comparator.comparingInt((SupervisedChild c) -> c.slot).thenComparingLong(SupervisedChild::pid));
    LOG.info("supervisor: stopping {} children: {}", all.size(),
        all.stream().map(c -> "#" + c.slot + " pid " + c.pid() + " " + c.state()).collect(Collectors.joining(", ")));
    List<SupervisedChild> replacements = all.stream().filter(c -> isReplacement(c, slots))
        .collect(Collectors.toList());
    List<SupervisedChild> rest = new ArrayList<>(all);
    rest.removeAll(replacements);
    boolean clean = true;
    try {
      replacements.forEach(SupervisedChild::stop);
      clean = awaitAll(replacements);
      if (sockets.ownsAny()) {
        // A child not yet started has not taken its socket yet: it must, before the supervisor lets go.
        awaitHandedOver(rest);
        sockets.closeOwn();
        LOG.info("supervisor: listening sockets left to the children, which close them as they drain");
      }
      rest.forEach(SupervisedChild::stop);
      clean &= awaitAll(rest);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      clean = false;
    }
    LOG.info("supervisor: all stopped");
    return clean;
  }

  /** A child started to replace the one serving its slot, and not ready yet. */
  private static boolean isReplacement(SupervisedChild c, SupervisedChild[] slots) {
    SupervisedChild serving = slots[c.slot];
    return SupervisorPolicy.stopsFirst(c.ready, c.retiring,
        serving != null && serving != c && serving.ready && serving.process.isAlive());
  }

  /** Waits for each to exit (killing one that overstays its drain); true when all exited 0. */
  private boolean awaitAll(List<SupervisedChild> children) throws InterruptedException {
    boolean clean = true;
    for (SupervisedChild c : children) {
      c.awaitExit(drain, service);
      int code = c.process.exitValue();
      LOG.info("{} #{} (pid {}) exited with code {}", service, c.slot, c.pid(), code);
      clean &= code == 0;
    }
    return clean;
  }

  /** Waits until each live child has taken its sockets; one that does not in time is killed. */
  private void awaitHandedOver(List<SupervisedChild> children) throws InterruptedException {
    long deadline = System.nanoTime() + readyTimeout.toNanos();
    for (SupervisedChild c : children) {
      c.awaitHandedOver(deadline, service);
    }
  }
}
