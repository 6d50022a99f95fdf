package io.portshare.runtime.launch;

import io.portshare.runtime.Option;
import io.portshare.runtime.ServiceDescriptor;
import io.portshare.runtime.Settings;
import io.portshare.runtime.StartException;
import io.portshare.runtime.UsageException;
import io.portshare.runtime.config.ExitCodes;
import io.portshare.runtime.config.LogFormat;
import io.portshare.runtime.config.RuntimeSettings;
import io.portshare.runtime.impl.ServiceRuntime;
import io.portshare.runtime.impl.StartPlan;
import io.portshare.runtime.impl.StopRequest;
import io.portshare.runtime.impl.Version;
import io.portshare.runtime.net.FileLimit;
import io.portshare.runtime.net.InheritedSockets;
import io.portshare.runtime.net.SystemdNotify;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.URL;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.jar.Manifest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one entry point of every service jar: picks the service, resolves its settings, starts it,
 * and drains it on SIGTERM or Ctrl-C. Exit codes: {@link ExitCodes}.
 */
public final class Launcher {

  /** Manifest attribute naming the service a jar runs when {@code --service} is not given. */
  public static final String MANIFEST_SERVICE = "Portshare-Service";
  /** The environment variable naming the service, as --service does. */
  static final String SERVICE_ENV = "PORTSHARE_SERVICE";
  private static final int HELP_COLUMN = 28;

  private Launcher() {}

  public static void main(String[] args) {
    int code;
    try {
      code = run(args, System.getenv(), System.out);
    } catch (UsageException e) {
      System.err.println("portshare: " + e.getMessage());
      code = ExitCodes.USAGE;
    } catch (StartException e) {
      System.err.println("portshare: " + e.getMessage());
      code = ExitCodes.SOFTWARE;
    } catch (Throwable t) {
      System.err.println("portshare: failed: " + t);
      t.printStackTrace();
      code = ExitCodes.SOFTWARE;
    }
    if (code >= 0) {
      System.exit(code);
    }
  }

  /** Runs until stopped; returns an exit code, or -1 when the service is running in the background. */
  static int run(String[] argv, Map<String, String> env, PrintStream out) throws InterruptedException {
    List<String> args = new ArrayList<>(List.of(argv));
    String serviceName = takeServiceFlag(args);
    if (serviceName == null) {
      serviceName = env.get(SERVICE_ENV);
    }
    Map<String, ServiceDescriptor> services = discover();
    ServiceDescriptor descriptor = choose(services, serviceName);
    // Not through ServiceRuntime: its logger would exist before the log format below is set.
    List<Option> options = RuntimeSettings.options(descriptor);
    if (args.contains("--help") || args.contains("-h")) {
      printHelp(descriptor, options, services, out);
      return ExitCodes.OK;
    }
    if (args.contains("--version")) {
      out.println("portshare " + descriptor.name() + " " + Version.get());
      return ExitCodes.OK;
    }
    Settings settings = Settings.resolve(options, args, env);
    RuntimeSettings common = RuntimeSettings.of(settings);
    configureLogging(common.logFormat());
    Logger log = LoggerFactory.getLogger(Launcher.class);

    logFileLimit(log);
    if (common.supervise() != 0) {
      return Supervisor.run(Launcher.class.getName(), descriptor, common, args, env, out);
    }
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
      Signals.on("HUP", () -> log.info("SIGHUP ignored: the supervisor replaces its children"));
      // A supervisor that is gone (even by SIGKILL) leaves no child behind serving on its own.
      ProcessHandle.current().parent().ifPresent(p -> p.onExit().thenRun(() -> {
        log.warn("the supervisor (pid {}) is gone; draining", p.pid());
        stop.request();
      }));
    }
    if (stop.requested()) {
      log.info("stop requested before the start: nothing to stop");
      return ExitCodes.OK;
    }
    ServiceRuntime runtime = ServiceRuntime.start(descriptor, settings, inherited, stop);
    if (runtime.ready()) {
      long readyMs = (System.nanoTime() - t0) / 1_000_000;
      StartPlan plan = runtime.plan();
      log.info("portshare {} {} ready in {} ms: mode={} transport={} channel={} instances={} vertx-metrics={} port={}"
          + " admin-port={}; {}", descriptor.name(), Version.get(), readyMs, plan.mode().label(), plan.transportName(),
          plan.channelName(), plan.instances(), common.vertxMetrics() ? "on" : "off", runtime.port(),
          runtime.adminPort(), runtime.startTimes().describe());
      if (inherited.fromSupervisor()) {
        Handover.reportReady(inherited.supervisor());
      }
      systemd.ready("serving on port " + runtime.port() + ", admin port " + runtime.adminPort());
      feedWatchdog(systemd, runtime);
    }
    stop.await();
    Duration drain = common.drainTimeout();
    systemd.stopping("draining for up to " + drain.toMillis() + " ms");
    log.info("stop requested: draining for up to {} ms", drain.toMillis());
    runtime.stop(drain);
    log.info("stopped");
    return ExitCodes.OK;
  }

  /**
   * WATCHDOG=1 to systemd (WatchdogSec=) while no service event loop is stuck, from a thread of its
   * own: a stuck loop stops the notifications, and systemd restarts the process.
   */
  private static void feedWatchdog(SystemdNotify systemd, ServiceRuntime runtime) {
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

  /**
   * Every connection is a descriptor. HotSpot raises the soft limit to the hard one at start
   * (-XX:+MaxFDLimit, on by default); say what we got, since it caps open connections.
   */
  private static void logFileLimit(Logger log) {
    String[] limit = FileLimit.read();
    if (limit != null) {
      log.info("open files limit: soft {} hard {} (each connection takes one)", limit[0], limit[1]);
      if (!limit[0].equals(limit[1])) {
        log.warn("open files soft limit {} is below the hard limit {}: start with -XX:+MaxFDLimit", limit[0], limit[1]);
      }
    }
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

  private static String takeServiceFlag(List<String> args) {
    for (int i = 0; i < args.size(); i++) {
      String a = args.get(i);
      if (a.startsWith("--service=")) {
        args.remove(i);
        return a.substring("--service=".length());
      }
      if (a.equals("--service")) {
        if (i + 1 >= args.size()) {
          throw new UsageException("option --service needs a value (see --help)");
        }
        args.remove(i);
        return args.remove(i);
      }
    }
    return null;
  }

  static Map<String, ServiceDescriptor> discover() {
    Map<String, ServiceDescriptor> services = new TreeMap<>();
    for (ServiceDescriptor d : ServiceLoader.load(ServiceDescriptor.class)) {
      services.put(d.name(), d);
    }
    return services;
  }

  private static ServiceDescriptor choose(Map<String, ServiceDescriptor> services, String name) {
    if (name == null) {
      name = manifestService();
    }
    if (name == null && services.size() == 1) {
      return services.values().iterator().next();
    }
    if (name == null) {
      throw new UsageException("which service? give --service NAME, one of " + String.join("|", services.keySet()));
    }
    ServiceDescriptor d = services.get(name);
    if (d == null) {
      throw new UsageException("invalid value for service: \"" + name + "\"; expected one of "
          + String.join("|", services.keySet()));
    }
    return d;
  }

  private static String manifestService() {
    try {
      Enumeration<URL> manifests = Launcher.class.getClassLoader().getResources("META-INF/MANIFEST.MF");
      while (manifests.hasMoreElements()) {
        try (InputStream in = manifests.nextElement().openStream()) {
          String s = new Manifest(in).getMainAttributes().getValue(MANIFEST_SERVICE);
          if (s != null) {
            return s.trim();
          }
        }
      }
    } catch (IOException e) {
      // No manifest to read: fall back to the other ways of naming the service.
    }
    return null;
  }

  private static void printHelp(ServiceDescriptor d, List<Option> options, Map<String, ServiceDescriptor> services,
      PrintStream out) {
    out.println("Usage: portshare " + d.name() + " [options]");
    out.println(d.description());
    out.println();
    out.println("Options (flag, or PORTSHARE_<NAME> in the environment, or <name>: in the --config file;");
    out.println("flags beat the environment, which beats the file, which beats the default):");
    for (Option o : options) {
      String def = o.defaultValue().isEmpty() ? ""
          : " (default: " + o.defaultValue() + (o.defaultNote().isEmpty() ? "" : ", " + o.defaultNote()) + ")";
      printOption(out, o.synopsis(), o.help() + def);
    }
    for (String[] flag : launcherFlags(services.keySet())) {
      printOption(out, flag[0], flag[2]);
    }
    out.println();
    out.println("Exit codes: " + ExitCodes.OK + " clean stop, " + ExitCodes.USAGE + " bad usage or config, "
        + ExitCodes.SOFTWARE + " anything else.");
  }

  /** One option a line; a flag too long for the column puts its description on the next line. */
  private static void printOption(PrintStream out, String flag, String description) {
    if (flag.length() > HELP_COLUMN) {
      out.printf("  %s%n  %-" + HELP_COLUMN + "s %s%n", flag, "", description);
    } else {
      out.printf("  %-" + HELP_COLUMN + "s %s%n", flag, description);
    }
  }

  /** The launcher's own flags, listed after the options (--help, docs/configuration.md): flag, environment, meaning. */
  static List<String[]> launcherFlags(Collection<String> services) {
    return List.of(
        new String[] {"--service NAME", SERVICE_ENV,
            "service to run: " + String.join("|", services) + " (default: the jar's own)"},
        new String[] {"--help", "", "show this help"},
        new String[] {"--version", "", "show the version"});
  }

  private static void configureLogging(LogFormat format) {
    // Must happen before the first logger exists; logback reads this property once, at first use.
    if (System.getProperty("logback.configurationFile") == null) {
      System.setProperty("logback.configurationFile",
          format == LogFormat.JSON ? "portshare-logback-json.xml" : "portshare-logback.xml");
    }
  }
}
