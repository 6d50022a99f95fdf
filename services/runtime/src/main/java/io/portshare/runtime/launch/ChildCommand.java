package io.portshare.runtime.launch;

import io.portshare.runtime.StartException;
import io.portshare.runtime.config.RuntimeSettings;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The command line of a supervised child: this JVM with its own options and class path, the
 * launcher, the supervisor's flags but those it sets for each child itself, then the child's layout
 * (one reuseport instance on the supervisor's port, its own admin port, supervising none).
 */
final class ChildCommand {

  /** Flags the supervisor sets for each child itself: the launcher's --service and the runtime's child flags. */
  private static final Set<String> CHILD_FLAGS = childFlagNames();

  private ChildCommand() {}

  static List<String> of(String mainClass, String service, List<String> supervisorArgs, int port, int adminPort) {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
    cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), mainClass, "--service", service));
    cmd.addAll(childArgs(supervisorArgs));
    cmd.addAll(RuntimeSettings.childFlags(port, adminPort));
    return cmd;
  }

  private static Set<String> childFlagNames() {
    Set<String> names = new HashSet<>(Set.of("service"));
    RuntimeSettings.childFlags(0, 0).stream().filter(f -> f.startsWith("--")).forEach(f -> names.add(f.substring(2)));
    return Set.copyOf(names);
  }

  /** The supervisor's own flags, but those it sets for each child. */
  static List<String> childArgs(List<String> args) {
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

  /**
   * Starts {@code cmd} as a child that takes its sockets over {@code handover}; without the
   * supervisor's own sockets and systemd's notifications, which stay the supervisor's.
   */
  static Process start(List<String> cmd, Path handover, String what) {
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
    pb.environment().keySet().removeIf(k -> k.startsWith("LISTEN_") || k.equals("NOTIFY_SOCKET")
        || k.startsWith("WATCHDOG_"));
    pb.environment().put(Handover.ENV, handover.toString());
    try {
      return pb.start();
    } catch (IOException e) {
      throw new StartException("cannot start " + what + ": " + e, e);
    }
  }
}
