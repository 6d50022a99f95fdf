package io.portshare.runtime.launch;

import io.portshare.runtime.ServiceDescriptor;
import io.portshare.runtime.Settings;
import io.portshare.runtime.config.ExitCodes;
import io.portshare.runtime.config.RuntimeSettings;
import io.portshare.runtime.impl.ServiceRuntime;
import io.portshare.runtime.impl.StartPlan;
import io.portshare.runtime.impl.StopRequest;
import io.portshare.runtime.impl.Version;
import io.portshare.runtime.net.InheritedSockets;
import io.portshare.runtime.net.SystemdNotify;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A service served in this process until a stop: SIGTERM and SIGINT as one stop, the sockets systemd
 * or a supervisor give it, the start banner, systemd's notifications and watchdog, and the drain.
 */
final class InProcessRun {

  /** The launcher's lines, as they were when it served in its own class: scripts and operators read them by it. */
  private static final Logger LOG = LoggerFactory.getLogger(Launcher.class);

  private InProcessRun() {}

  /** Serves {@code descriptor} on {@code settings} until stopped; returns the exit code. */
  static int serve(ServiceDescriptor descriptor, Settings settings, Map<String, String> env)
      throws InterruptedException {
    RuntimeSettings common = RuntimeSettings.of(settings);
    long t0 = System.nanoTime();
    // From here on a stop is clean whenever it comes, before the sockets, while starting or warming up
    // (a supervisor hands the sockets only to a child that asks, so one stopped during its own
    // reload has its handler by then), or while serving. Once: Ctrl-C reaches a supervisor's
    // children too, and a second signal must not cut the drain short.
    StopRequest stop = new StopRequest();
    SystemdNotify systemd = SystemdNotify.fromEnvironment(env, ProcessHandle.current().pid());
    Signals.on("TERM", stop::request);
    Signals.on("INT", stop::request);
    InheritedSockets inherited = inheritedSockets(env);
    if (inherited.fromSupervisor()) {
      // A closed terminal hangs up the supervisor's whole process group; only the supervisor acts on it.
      Signals.on("HUP", () -> LOG.info("SIGHUP ignored: the supervisor replaces its children"));
      // A supervisor that is gone (even by SIGKILL) leaves no child behind serving on its own.
      ProcessHandle.current().parent().ifPresent(p -> p.onExit().thenRun(() -> {
        LOG.warn("the supervisor (pid {}) is gone; draining", p.pid());
        stop.request();
      }));
    }
    if (stop.requested()) {
      LOG.info("stop requested before the start: nothing to stop");
      return ExitCodes.OK;
    }
    ServiceRuntime runtime = ServiceRuntime.start(descriptor, settings, inherited, stop);
    if (runtime.ready()) {
      long readyMs = (System.nanoTime() - t0) / 1_000_000;
      StartPlan plan = runtime.plan();
      LOG.info("portshare {} {} ready in {} ms: mode={} transport={} channel={} instances={} vertx-metrics={} port={}"
          + " admin-port={}; {}", descriptor.name(), Version.get(), readyMs, plan.mode().label(), plan.transportName(),
          plan.channelName(), plan.instances(), common.vertxMetrics() ? "on" : "off", runtime.port(),
          runtime.adminPort(), runtime.startTimes().describe());
      if (inherited.fromSupervisor()) {
        Handover.reportReady(inherited.supervisor());
      }
      systemd.ready("serving on port " + runtime.port() + ", admin port " + runtime.adminPort());
      SystemdWatchdog.feed(systemd, runtime);
    }
    stop.await();
    Duration drain = common.drainTimeout();
    systemd.stopping("draining for up to " + drain.toMillis() + " ms");
    LOG.info("stop requested: draining for up to {} ms", drain.toMillis());
    runtime.stop(drain);
    LOG.info("stopped");
    return ExitCodes.OK;
  }

  /** The sockets systemd gave this process, else those its supervisor hands it ({@link Handover}), else none. */
  private static InheritedSockets inheritedSockets(Map<String, String> env) {
    InheritedSockets systemd = InheritedSockets.fromListenFds(env, ProcessHandle.current().pid());
    if (!systemd.isEmpty()) {
      return systemd;
    }
    String handover = env.get(Handover.ENV);
    if (handover == null || handover.isBlank()) {
      return InheritedSockets.none();
    }
    Path socket = Path.of(handover);
    return InheritedSockets.of(Handover.receiveSockets(socket), "supervisor " + socket, socket);
  }
}
