package io.portshare.bench.staticfiles;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

/**
 * What one static benchmark run does: the servers (static-server's jar, JVM options and extra flags, nginx and its
 * template), the wrk runs (paths, kinds of connection, rounds, duration, warm-up) and the big-file
 * CPU measurement. Ports: static-server PORT (admin PORT+1), its copying twin PORT+2 (admin PORT+3),
 * nginx NGINX_PORT and its sendfile-off twin NGINX_PORT+1.
 */
public record StaticPlan(
    Path serverJar, List<String> serverJvmOptions, List<String> serverArgs, String mode, int workers, int port,
    String nginx, Path nginxTemplate, int nginxPort,
    Wrk wrk, List<String> paths, List<Boolean> closeKinds, int rounds, Duration duration, Duration warmup,
    Duration warmupMax,
    String bigPath, int bigRounds, int bigFetches,
    Path scratchParent, Path logDir, int firstAddress) {

  public StaticPlan {
    serverJvmOptions = List.copyOf(serverJvmOptions);
    serverArgs = List.copyOf(serverArgs);
    paths = List.copyOf(paths);
    closeKinds = List.copyOf(closeKinds);
  }

  /** Every file the site needs. */
  public List<String> sitePaths() {
    return bigRounds > 0 && !paths.contains(bigPath)
        ? Stream.concat(paths.stream(), Stream.of(bigPath)).toList()
        : paths;
  }

  static String kind(boolean close) {
    return close ? "close" : "keep-alive";
  }
}
