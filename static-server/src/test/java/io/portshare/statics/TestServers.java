package io.portshare.statics;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The flags of the in-process static-server the tests start: loopback, free ports, one event loop. */
final class TestServers {

  private TestServers() {}

  /** Serves {@code root}, with {@code extra} flags after the common ones. */
  static String[] flags(Path root, String... extra) {
    List<String> flags = new ArrayList<>(List.of("--port", "0", "--admin-port", "0", "--instances", "1",
        "--host", "127.0.0.1", "--root", root.toString()));
    flags.addAll(List.of(extra));
    return flags.toArray(String[]::new);
  }
}
