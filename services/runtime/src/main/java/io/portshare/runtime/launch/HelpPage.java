package io.portshare.runtime.launch;

import io.portshare.runtime.Option;
import io.portshare.runtime.ServiceDescriptor;
import io.portshare.runtime.config.ExitCodes;
import java.io.PrintStream;
import java.util.Collection;
import java.util.List;

/** What {@code --help} prints: the service, its options and the launcher's own flags, one a line, and the exit codes. */
final class HelpPage {

  private static final int HELP_COLUMN = 28;

  private HelpPage() {}

  static void print(ServiceDescriptor d, List<Option> options, Collection<String> services, PrintStream out) {
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
    for (String[] flag : launcherFlags(services)) {
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
        new String[] {"--service NAME", ServiceDiscovery.SERVICE_ENV,
            "service to run: " + String.join("|", services) + " (default: the jar's own)"},
        new String[] {"--help", "", "show this help"},
        new String[] {"--version", "", "show the version"});
  }
}
