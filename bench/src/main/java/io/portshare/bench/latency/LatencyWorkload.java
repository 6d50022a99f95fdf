package io.portshare.bench.latency;

import io.portshare.bench.ledger.Contender;
import io.portshare.bench.load.Wire;
import java.util.List;

/**
 * A column of the latency run: an HTTP GET of a file on a keep-alive connection or one per request
 * ({@code Connection: close}), or an RPC exchange (payload size, transactions per connection).
 */
public record LatencyWorkload(String label, Contender.Kind kind, int size, int perConnection, String path) {

  /** Requests one keep-alive connection may carry: more than any run sends. */
  static final int KEEP_ALIVE = 1 << 30;

  public static final List<LatencyWorkload> ALL = List.of(http("1k.bin", false), http("1k.bin", true),
      rpc(64, 1), rpc(64, 1024));

  static LatencyWorkload rpc(int size, int perConnection) {
    return new LatencyWorkload(size + "B|" + perConnection + "x", Contender.Kind.RPC, size, perConnection, null);
  }

  static LatencyWorkload http(String path, boolean close) {
    return new LatencyWorkload(path + (close ? " close" : " keep-alive"), Contender.Kind.HTTP, 1024,
        close ? 1 : KEEP_ALIVE, path);
  }

  boolean close() {
    return kind == Contender.Kind.HTTP && perConnection == 1;
  }

  /** What the generator speaks for this column to {@code host}. */
  Wire wire(String host) {
    return kind == Contender.Kind.RPC ? Wire.echo(size) : Wire.http(host, "/" + path, close(), size);
  }

  static LatencyWorkload named(String label) {
    return ALL.stream().filter(w -> w.label.equals(label)).findFirst().orElseThrow(() -> new IllegalArgumentException(
        "invalid value for --cells: " + label + "; expected some of " + ALL.stream().map(LatencyWorkload::label).toList()));
  }
}
