package io.portshare.bench.rpc;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** A column of the RPC table: payload size and transactions per connection, e.g. {@code 64B|1024x}. */
public record Column(int payloadSize, int perConnection) {

  /** The seed table's columns. */
  public static final List<Column> SEED = List.of(
      new Column(64, 1), new Column(64, 1024), new Column(1024, 1), new Column(1024, 1024));

  public String label() {
    return payloadSize + "B|" + perConnection + "x";
  }

  /** Parses {@code 64B|1x}, {@code 64x1} or {@code 64:1}, comma separated. */
  public static List<Column> parseList(String text) {
    List<Column> out = new ArrayList<>();
    for (String part : text.split(",")) {
      String p = part.trim().toUpperCase(Locale.ROOT);
      String[] f = p.split("[|X:]", 2);
      if (f.length != 2) {
        throw new IllegalArgumentException("bad column \"" + part + "\"; expected SIZE|Kx as in 64B|1024x");
      }
      try {
        int size = Integer.parseInt(f[0].replace("B", ""));
        int k = Integer.parseInt(f[1].replace("X", ""));
        out.add(new Column(size, k));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("bad column \"" + part + "\"; expected SIZE|Kx as in 64B|1024x");
      }
    }
    return out;
  }
}
