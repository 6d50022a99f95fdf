package io.portshare.bench.rpc;

import io.portshare.bench.load.LoadOptions;
import io.portshare.bench.results.OutDir;
import java.util.List;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * What the RPC table commands (rpc-matrix, rpc-calibrate) share: the load of each cell, the servers
 * they start, the table's columns and where its reports go.
 */
final class RpcTableOptions {

  @Mixin
  LoadOptions load = new LoadOptions();

  @Mixin
  RpcServers servers = new RpcServers();

  @Mixin
  OutDir reports = new OutDir();

  @Option(names = "--columns", defaultValue = "64B|1x,64B|1024x,1024B|1x,1024B|1024x",
      description = "SIZE|Kx cells (default: ${DEFAULT-VALUE})")
  String columns;

  List<Column> columns() {
    return Column.parseList(columns);
  }
}
