package io.portshare.bench;

import java.util.List;
import picocli.CommandLine.Option;

/** The cells of an RPC table: SIZE|Kx columns. */
final class ColumnsOption {

  @Option(names = "--columns", defaultValue = "64B|1x,64B|1024x,1024B|1x,1024B|1024x",
      description = "SIZE|Kx cells (default: ${DEFAULT-VALUE})")
  String columns;

  List<Column> parse() {
    return Column.parseList(columns);
  }
}
