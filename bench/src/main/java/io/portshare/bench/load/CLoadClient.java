package io.portshare.bench.load;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** The option of a command that runs the C RPC client, the closed-loop reference engine. */
public final class CLoadClient {

  @Option(names = "--c-load", defaultValue = "bench/peers/c-echo/rpcload",
      description = "the C reference client (default: ${DEFAULT-VALUE})")
  Path cLoad;

  public Path path() {
    return cLoad;
  }
}
