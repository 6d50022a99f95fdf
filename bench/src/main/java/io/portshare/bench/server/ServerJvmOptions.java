package io.portshare.bench.server;

import java.util.Arrays;
import java.util.List;
import picocli.CommandLine.Option;

/** The option of a command that starts JVM servers: the flags their JVMs run with. */
public final class ServerJvmOptions {

  @Option(names = "--server-jvm-options", description = "JVM flags of the started JVM servers (default: ${DEFAULT-VALUE})")
  String serverJvmOptions;

  public ServerJvmOptions() {
    this("-Xms256m -Xmx256m -XX:+ExitOnOutOfMemoryError");
  }

  /** With another command's default flags. */
  public ServerJvmOptions(String defaults) {
    this.serverJvmOptions = defaults;
  }

  /** The flags, split at white space; none when blank. */
  public List<String> list() {
    return serverJvmOptions.isBlank() ? List.of() : Arrays.asList(serverJvmOptions.trim().split("\\s+"));
  }

  /** The flags as given, for a run's description. */
  @Override
  public String toString() {
    return serverJvmOptions;
  }
}
