package io.portshare.bench.server;

import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** The option of a command that starts the C epoll echo server, the RPC peer. */
public final class CEchoPeer {

  @Option(names = "--c-echo", defaultValue = "bench/peers/c-echo/echo",
      description = "the C epoll echo server, run as CMD -p PORT -t N (default: ${DEFAULT-VALUE})")
  Path cEcho;

  public Path path() {
    return cEcho;
  }

  /** Whether it is built: bench/peers/c-echo/build.sh makes it. */
  public boolean built() {
    return Files.isExecutable(cEcho);
  }
}
