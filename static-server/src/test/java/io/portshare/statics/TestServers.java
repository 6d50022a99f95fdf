package io.portshare.statics;

import io.portshare.runtime.ServiceRuntime;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** The in-process static-server the tests start: loopback, free ports, one event loop. */
final class TestServers {

  private TestServers() {}

  /** Serves {@code root}, with {@code extra} flags after the common ones. */
  static ServiceRuntime start(Path root, String... extra) {
    List<String> flags = new ArrayList<>(List.of("--port", "0", "--admin-port", "0", "--instances", "1",
        "--host", "127.0.0.1", "--root", root.toString()));
    flags.addAll(List.of(extra));
    return ServiceRuntime.start(new StaticService(), flags.toArray(String[]::new));
  }

  static void stop(ServiceRuntime rt) {
    if (rt != null) {
      rt.stop(Duration.ofSeconds(1));
    }
  }
}
