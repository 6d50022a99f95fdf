package io.portshare.bench.rpc;

import io.portshare.bench.server.CEchoPeer;
import io.portshare.bench.server.ServerJar;
import io.portshare.bench.server.ServerProcesses;
import java.util.List;
import picocli.CommandLine.Mixin;

/** The servers an RPC command starts: rpc-server from its jar, and the C epoll echo peer. */
final class RpcServers extends ServerJar {

  @Mixin
  CEchoPeer cEcho = new CEchoPeer();

  RpcServers() {
    super("rpc-server");
  }

  /** rpc-server's command lines for a row: one JVM, or one per worker in mode processes. */
  List<List<String>> rpcServer(String mode, int workers, String host, int port) {
    return ServerProcesses.commands(java(), jvmOptions(), jar(), mode, workers, host, port);
  }

  boolean hasCEcho() {
    return cEcho.built();
  }

  /** The C echo peer's command line; it must be built. */
  List<String> cEcho(int port, int threads) {
    if (!hasCEcho()) {
      throw new IllegalArgumentException("no C echo peer at " + cEcho.path()
          + "; build it with bench/peers/c-echo/build.sh, or give --c-echo");
    }
    return List.of(cEcho.path().toString(), "-p", Integer.toString(port), "-t", Integer.toString(threads));
  }
}
