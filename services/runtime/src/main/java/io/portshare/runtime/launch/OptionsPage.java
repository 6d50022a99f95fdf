package io.portshare.runtime.launch;

import io.portshare.runtime.Option;
import io.portshare.runtime.ServiceDescriptor;
import io.portshare.runtime.config.ExitCodes;
import io.portshare.runtime.config.RuntimeSettings;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The option tables of docs/configuration.md, rendered from the option model that {@code --help}
 * prints, so that the page cannot drift from the code: the options every service has, then each
 * service's own, for the services on the class path. {@code OptionsPage PAGE} rewrites the part of
 * PAGE between {@link #BEGIN} and {@link #END}; {@link #COMMAND} does it from the top of the repository.
 */
public final class OptionsPage {

  public static final String BEGIN = "<!-- generated from the option model by OptionsPage: change an option, then regenerate -->";
  public static final String END = "<!-- end of the generated options -->";
  public static final String COMMAND = "./mvnw -B -q package -DskipTests && java -cp "
      + "rpc-server/target/portshare-rpc-server.jar:static-server/target/portshare-static-server.jar "
      + OptionsPage.class.getName() + " docs/configuration.md";

  private OptionsPage() {}

  public static void main(String[] args) throws IOException {
    if (args.length != 1) {
      System.err.println("usage: " + OptionsPage.class.getName() + " PAGE.md (rewrites its generated option tables)");
      System.exit(ExitCodes.USAGE);
    }
    Path page = Path.of(args[0]);
    Files.writeString(page, render(Files.readString(page, StandardCharsets.UTF_8)), StandardCharsets.UTF_8);
  }

  /** The page with its generated part made again from the services on the class path. */
  public static String render(String page) {
    int begin = page.indexOf(BEGIN);
    int end = page.indexOf(END);
    if (begin < 0 || end < begin) {
      throw new IllegalArgumentException("the page has no generated part: " + BEGIN + " ... " + END);
    }
    return page.substring(0, begin + BEGIN.length()) + "\n" + tables(ServiceDiscovery.discover().values())
        + page.substring(end);
  }

  static String tables(Collection<ServiceDescriptor> services) {
    StringBuilder out = new StringBuilder("\n### Every service\n\n");
    header(out);
    // The common options are the same for every service but for a few defaults (ports, idle timeout): name them per service.
    Map<String, Option> common = new LinkedHashMap<>();
    Map<String, Map<String, String>> defaults = new LinkedHashMap<>();
    for (ServiceDescriptor d : services) {
      for (Option o : RuntimeSettings.commonOptions(d)) {
        common.putIfAbsent(o.name(), o);
        defaults.computeIfAbsent(o.name(), k -> new LinkedHashMap<>()).put(d.name(), o.defaultValue());
      }
    }
    for (Option o : common.values()) {
      Map<String, String> perService = defaults.get(o.name());
      String defaultCell = perService.values().stream().distinct().count() <= 1 ? defaultOf(o)
          : String.join(", ", perService.entrySet().stream().map(e -> code(e.getValue()) + " " + e.getKey()).toList());
      row(out, o, defaultCell);
    }
    for (String[] flag : HelpPage.launcherFlags(services.stream().map(ServiceDescriptor::name).toList())) {
      out.append("| ").append(code(flag[0])).append(" | ").append(flag[1].isEmpty() ? "" : code(flag[1]))
          .append(" | | ").append(cell(flag[2])).append(" |\n");
    }
    for (ServiceDescriptor d : services) {
      out.append("\n### ").append(d.name()).append("\n\n").append(cell(d.description())).append("\n\n");
      if (d.options().isEmpty()) {
        out.append("No options of its own.\n");
        continue;
      }
      header(out);
      for (Option o : d.options()) {
        row(out, o, defaultOf(o));
      }
    }
    return out.append('\n').toString();
  }

  private static void header(StringBuilder out) {
    out.append("| flag | environment | default | meaning |\n|---|---|---|---|\n");
  }

  private static void row(StringBuilder out, Option o, String defaultCell) {
    out.append("| ").append(code(o.synopsis())).append(" | ").append(code(o.envName())).append(" | ")
        .append(defaultCell).append(" | ").append(cell(o.help())).append(" |\n");
  }

  /** A default that depends on the machine (the CPU count) is stated as where it comes from. */
  private static String defaultOf(Option o) {
    if (!o.defaultNote().isEmpty()) {
      return cell(o.defaultNote());
    }
    return o.defaultValue().isEmpty() ? "none" : code(o.defaultValue());
  }

  private static String code(String text) {
    return "`" + cell(text) + "`";
  }

  /** A table cell: a bar, even inside a code span, would end the cell. */
  private static String cell(String text) {
    return text.replace("|", "\\|");
  }
}
