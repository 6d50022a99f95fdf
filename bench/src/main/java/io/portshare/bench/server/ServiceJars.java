package io.portshare.bench.server;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** The options of a command that starts both services from their packaged jars. */
public final class ServiceJars {

  @Option(names = "--rpc-server-jar", defaultValue = "rpc-server/target/portshare-rpc-server.jar",
      description = "(default: ${DEFAULT-VALUE})")
  Path rpcServerJar;

  @Option(names = "--static-server-jar", defaultValue = "static-server/target/portshare-static-server.jar",
      description = "also where the site's index.html comes from (default: ${DEFAULT-VALUE})")
  Path staticServerJar;

  public Path rpcServer() {
    return rpcServerJar;
  }

  public Path staticServer() {
    return staticServerJar;
  }
}
