package io.portshare.runtime.launch;

import org.slf4j.LoggerFactory;

/** The process's signal handlers: the launcher's drain on SIGTERM and SIGINT, the supervisor's SIGHUP. */
final class Signals {

  private Signals() {}

  /**
   * Replaces the JVM's default handler (so that a drained stop exits 0 rather than 143); the action
   * runs on the JVM's signal thread and must be quick.
   */
  static void on(String name, Runnable action) {
    try {
      sun.misc.Signal.handle(new sun.misc.Signal(name), sig -> action.run());
    } catch (IllegalArgumentException e) {
      // Not available here, or ignored since this process started (nohup ignores HUP, and the JVM
      // then refuses to handle it): the default handling stays, and the operator is told.
      LoggerFactory.getLogger(Signals.class).warn("SIG{} cannot be handled here ({}): it does nothing to this "
          + "process; start it without nohup or a shell that ignores SIG{}", name, e.getMessage(), name);
    }
  }
}
