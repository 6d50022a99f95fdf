package io.portshare.runtime.launch;

import io.portshare.runtime.impl.ServiceRuntime;
import io.portshare.runtime.net.SystemdNotify;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * WATCHDOG=1 to systemd (WatchdogSec=) while no service event loop is stuck, from a thread of its
 * own: a stuck loop stops the notifications, and systemd restarts the process.
 */
final class SystemdWatchdog {

  private SystemdWatchdog() {}

  /** Feeds {@code systemd}'s watchdog for {@code runtime} until the JVM exits; nothing when systemd asks for none. */
  static void feed(SystemdNotify systemd, ServiceRuntime runtime) {
    Duration every = systemd.watchdogInterval();
    if (every.isZero()) {
      return;
    }
    ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "portshare-watchdog");
      t.setDaemon(true);
      return t;
    });
    timer.scheduleAtFixedRate(() -> {
      if (runtime.eventLoopsStuck() == 0) {
        systemd.watchdog();
      }
    }, 0, every.toMillis(), TimeUnit.MILLISECONDS);
  }
}
