package io.portshare.bench.server;

import java.util.Arrays;
import java.util.List;
import picocli.CommandLine.Option;

/** The option of a command that starts portshare services: more flags for them, after the bench's own. */
public final class ServerArgs {

  @Option(names = "--server-args", defaultValue = "",
      description = "more flags for the started services, e.g. \"--memory-max 0\" for static-server to send small "
          + "files with sendfile too")
  String serverArgs;

  /** The flags, split at white space; none when not given. */
  public List<String> list() {
    return serverArgs.isBlank() ? List.of() : Arrays.asList(serverArgs.trim().split("\\s+"));
  }
}
