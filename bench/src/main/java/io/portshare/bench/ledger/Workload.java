package io.portshare.bench.ledger;

import java.util.List;

/**
 * A column of the ledger: an RPC exchange (payload size, transactions per connection) or an HTTP
 * request (path, one per connection or keep-alive). {@code perConnection} is how many operations
 * one connection carries; 0 for keep-alive, where connections last the whole run. The path is a file
 * of the site, or {@value #HELLO_PATH}: the dynamic route, a short text a handler writes (the Router
 * rows' {@code GET /hello}, nginx's {@code return 200}), which only some rows have.
 */
record Workload(String label, Contender.Kind kind, int size, int perConnection, String path) {

  static final List<Workload> RPC = List.of(rpc(64, 1), rpc(1024, 1), rpc(64, 1024), rpc(1024, 1024));
  static final String HELLO_PATH = "hello";
  static final List<Workload> HTTP = List.of(http("1k.bin", true), http("index.html", true), http("1k.bin", false),
      http(HELLO_PATH, true), http(HELLO_PATH, false));

  static Workload rpc(int size, int perConnection) {
    return new Workload(size + "B|" + perConnection + "x", Contender.Kind.RPC, size, perConnection, null);
  }

  static Workload http(String path, boolean close) {
    return new Workload(path + (close ? " close" : " keep-alive"), Contender.Kind.HTTP, 0, close ? 1 : 0, path);
  }

  boolean close() {
    return perConnection == 1;
  }

  /** The dynamic route rather than a file: no file of the site, and only the rows that have the route answer it. */
  boolean dynamic() {
    return HELLO_PATH.equals(path);
  }

  static Workload named(String label) {
    for (Workload w : RPC) {
      if (w.label.equals(label)) {
        return w;
      }
    }
    for (Workload w : HTTP) {
      if (w.label.equals(label)) {
        return w;
      }
    }
    throw new IllegalArgumentException("invalid value for --columns: " + label + "; expected one of "
        + RPC.stream().map(Workload::label).toList() + " or " + HTTP.stream().map(Workload::label).toList());
  }
}
