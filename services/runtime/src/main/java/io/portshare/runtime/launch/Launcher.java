package io.portshare.runtime.launch;

import io.portshare.runtime.Option;
import io.portshare.runtime.ServiceDescriptor;
import io.portshare.runtime.Settings;
import io.portshare.runtime.StartException;
import io.portshare.runtime.UsageException;
import io.portshare.runtime.config.ExitCodes;
import io.portshare.runtime.config.RuntimeSettings;
import io.portshare.runtime.impl.Version;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one entry point of every service jar: finds the service ({@link ServiceDiscovery}), resolves
 * its settings and hands over, to the {@link Supervisor} or to {@link InProcessRun}. Failures become
 * exit codes ({@link ExitCodes}), with one line.
 */
public final class Launcher {

  /** Manifest attribute naming the service a jar runs when {@code --service} is not given. */
  public static final String MANIFEST_SERVICE = ServiceDiscovery.MANIFEST_SERVICE;

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
    String serviceName = ServiceDiscovery.takeServiceFlag(args);
    if (serviceName == null) {
      serviceName = env.get(ServiceDiscovery.SERVICE_ENV);
    }
    Map<String, ServiceDescriptor> services = ServiceDiscovery.discover();
    ServiceDescriptor descriptor = ServiceDiscovery.choose(services, serviceName);
    // Not through ServiceRuntime: its logger would exist before the log format below is set.
    List<Option> options = RuntimeSettings.options(descriptor);
    if (args.contains("--help") || args.contains("-h")) {
      HelpPage.print(descriptor, options, services.keySet(), out);
      return ExitCodes.OK;
    }
    if (args.contains("--version")) {
      out.println("portshare " + descriptor.name() + " " + Version.get());
      return ExitCodes.OK;
    }
    Settings settings = Settings.resolve(options, args, env);
    RuntimeSettings common = RuntimeSettings.of(settings);
    LoggingSetup.configure(common.logFormat());
    Logger log = LoggerFactory.getLogger(Launcher.class);
    LoggingSetup.logFileLimit(log);
    if (common.supervise() != 0) {
      return Supervisor.run(Launcher.class.getName(), descriptor, common, args, env, out);
    }
    return InProcessRun.serve(descriptor, settings, env);
  }
}
