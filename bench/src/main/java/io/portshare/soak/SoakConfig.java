package io.portshare.soak;

import java.nio.file.Path;

/**
 * Where the service jars are, which ports a run may use, and how big each scenario is.
 *
 * @param portBase scenario k uses ports portBase + 20k ... + 20k + 19
 */
record SoakConfig(Path rpcJar, Path staticJar, Path deployDir, int portBase, long shortConnections,
    int concurrentConnections, int processes, int rollingRounds, int seconds) {

  static SoakConfig quick(Path root, int portBase) {
    return new SoakConfig(root.resolve("rpc-server/target/portshare-rpc-server.jar"),
        root.resolve("static-server/target/portshare-static-server.jar"), root.resolve("deploy"), portBase,
        20_000, 2_000, 2, 1, 3);
  }

  int port(int scenario, int offset) {
    return portBase + 20 * scenario + offset;
  }
}
