package io.portshare.runtime.impl;

import io.portshare.runtime.net.Listeners;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The graceful stop of a service: readiness turns false, listeners close once their accept queues are
 * empty, open connections finish up to the timeout, then every Vert.x closes. Once: a second stop
 * does nothing.
 */
final class Drain {

  /** The runtime's lines, under the name they had before the drain had a class of its own. */
  private static final Logger LOG = LoggerFactory.getLogger(ServiceRuntime.class);
  /** How much longer than the drain timeout the verticles' drains may take to report back. */
  private static final Duration DRAIN_REPORT_WAIT = Duration.ofSeconds(2);
  /**
   * How long closing the service's Vert.x instances, then the admin's, may each take once drained:
   * nothing is left to finish then, so a close that takes longer is stuck, and the pod's grace
   * period must cover it (see {@link #waitsBeyondDrain}).
   */
  private static final Duration CLOSE_WAIT = Duration.ofSeconds(3);

  private final Listeners listeners;
  private final Instances instances;
  private final AdminSide admin;
  private final StartSequence start;
  private boolean stopped;
  /** When the drain began (System.nanoTime), 0 before. */
  private volatile long startedNanos;

  Drain(Listeners listeners, Instances instances, AdminSide admin, StartSequence start) {
    this.listeners = listeners;
    this.instances = instances;
    this.admin = admin;
    this.start = start;
  }

  /** Drains and closes everything within {@code drainTimeout} and the waits after it; blocks until done. */
  void run(Duration drainTimeout) {
    synchronized (this) {
      if (stopped) {
        return;
      }
      stopped = true;
    }
    startedNanos = System.nanoTime();
    admin.ready(false);
    if (start.phase() != Phase.READY) {
      LOG.info("stopped while {}: {}", start.phase(), listeners.isEmpty() ? "nothing was listening, nothing to drain"
          : "draining what it accepted meanwhile");
    }
    LOG.info("draining: {} connections open, timeout {} ms", start.connections().open(), drainTimeout.toMillis());
    // Before any server's own shutdown, and with empty accept queues: see Listeners. Connections
    // already accepted are served meanwhile; they are told to finish once the listeners are closed.
    long t0 = System.nanoTime();
    listeners.closeAll(drainTimeout);
    // --drain-timeout bounds the whole drain, the wait for the accept queues included.
    Duration left = drainTimeout.minusNanos(System.nanoTime() - t0);
    Duration connectionsTimeout = left.isNegative() ? Duration.ZERO : left;
    instances.drain(connectionsTimeout, DRAIN_REPORT_WAIT);
    closeAll();
    LOG.info("drained: {} connections were cut at the timeout", start.connections().open());
  }

  /** Closes the service's Vert.x instances, then the admin side's, each within {@link #CLOSE_WAIT}. */
  void closeAll() {
    instances.close(CLOSE_WAIT);
    try {
      admin.close(CLOSE_WAIT);
    } catch (Exception e) {
      LOG.warn("closing admin server: {}", e.toString());
    }
  }

  /** Seconds since the drain began, 0 before: what /metrics reports while draining. */
  double seconds() {
    long t = startedNanos;
    return t == 0 ? 0 : (System.nanoTime() - t) / 1e9;
  }

  /** The longest a drain can take beyond its timeout: the drains' report and the two closes. */
  static Duration waitsBeyondDrain() {
    return DRAIN_REPORT_WAIT.plus(CLOSE_WAIT).plus(CLOSE_WAIT);
  }
}
