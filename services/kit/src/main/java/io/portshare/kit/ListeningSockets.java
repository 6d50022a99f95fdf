package io.portshare.kit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Counts the TCP sockets in LISTEN state on a port, from the kernel's own tables. */
public final class ListeningSockets {

  private static final String LISTEN = "0A";

  private ListeningSockets() {}

  public static long count(int port) throws IOException {
    return count(Path.of("/proc/net/tcp"), port) + count(Path.of("/proc/net/tcp6"), port);
  }

  private static long count(Path table, int port) throws IOException {
    if (!Files.exists(table)) {
      return 0;
    }
    String hexPort = String.format(":%04X", port);
    List<String> lines = Files.readAllLines(table);
    return lines.stream().skip(1).map(String::trim).map(l -> l.split("\\s+"))
        .filter(f -> f.length > 3 && f[1].endsWith(hexPort) && f[3].equals(LISTEN))
        .count();
  }
}
