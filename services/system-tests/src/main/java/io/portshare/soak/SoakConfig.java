package io.portshare.soak;

import io.portshare.kit.ServiceProcess;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where the service jars are, which ports a run may use, and how big each scenario is.
 *
 * @param rpcJar the jar the RPC scenarios start (rpc-server's unless given)
 * @param staticJar the jar the HTTP scenarios start (static-server's unless given)
 * @param portBase scenario k uses ports portBase + 20k ... + 20k + 19; 0 picks a free block of 20 per
 *     scenario instead (tests: runs in parallel must not collide)
 */
record SoakConfig(Path rpcJar, Path staticJar, Path deployDir, int portBase, long shortConnections,
    int concurrentConnections, int processes, int rollingRounds, Duration loadTime) {

  /**
   * The warm-up of the processes a supervisor starts in the kill and SIGHUP scenarios (those started
   * one by one start cold: {@link ServiceProcess#launchJar}). A replacement that warms up while the
   * old processes serve is one more stage in which nothing may be lost, so it is kept; its length is
   * not the scenarios' to judge (the service default, 12 s, made one SIGHUP replacement of two
   * processes take 42 s).
   */
  static final String WARMUP = "2s";

  /**
   * The jar a run starts for {@code service}: a path to a jar (it holds a slash or ends in
   * {@code .jar}) as given, against the working directory; else a service module of the repository
   * at {@code root} (a {@code NAME/pom.xml} that names a {@code portshare.service}),
   * {@code NAME/target/portshare-NAME.jar}, found by NAME or NAME without its {@code -server}
   * ({@code rpc}, {@code greeter}), as deploy/lib.sh finds one for the scripts.
   *
   * @throws IllegalArgumentException with one line naming what is missing
   */
  static Path serviceJar(Path root, String service) throws IOException {
    if (service.contains("/") || service.endsWith(".jar")) {
      Path jar = Path.of(service).toAbsolutePath().normalize();
      if (!Files.isRegularFile(jar)) {
        throw new IllegalArgumentException("no service jar at " + service);
      }
      return jar;
    }
    if (service.matches("[a-z0-9][a-z0-9._-]*")) {
      for (String module : List.of(service, service + "-server")) {
        Path pom = root.resolve(module).resolve("pom.xml");
        if (Files.isRegularFile(pom) && Files.readString(pom).contains("<portshare.service>")) {
          Path jar = root.resolve(module).resolve("target").resolve("portshare-" + module + ".jar");
          if (!Files.isRegularFile(jar)) {
            throw new IllegalArgumentException(module + "'s jar is not built (" + root.relativize(jar)
                + "): ./mvnw -B -pl " + module + " -am package -DskipTests");
          }
          return jar;
        }
      }
    }
    throw new IllegalArgumentException("unknown service \"" + service
        + "\"; expected a service jar (path/to/my-service.jar) or a module name (rpc-server, static-server, NAME-server)");
  }

  static SoakConfig quick(Path root, int portBase) {
    return new SoakConfig(root.resolve("rpc-server/target/portshare-rpc-server.jar"),
        root.resolve("static-server/target/portshare-static-server.jar"), root.resolve("deploy"), portBase,
        20_000, 2_000, 2, 1, Duration.ofSeconds(3));
  }

  /**
   * A service jar as the scenarios start it: two instances on loopback, traffic on {@code port},
   * admin on {@code port + 1}, {@code flags} after those; returned once ready.
   */
  static ServiceProcess serve(Path jar, int port, String... flags) throws IOException, InterruptedException {
    return serve(jar, port, Map.of(), flags);
  }

  /**
   * The same, with settings of the service's own (not the runtime's: {@code idle-timeout},
   * {@code header-timeout}, {@code root}) given through its environment, {@link #own}.
   */
  static ServiceProcess serve(Path jar, int port, Map<String, String> own, String... flags)
      throws IOException, InterruptedException {
    List<String> all = new ArrayList<>(List.of("--port", Integer.toString(port), "--admin-port",
        Integer.toString(port + 1), "--host", "127.0.0.1", "--instances", "2"));
    all.addAll(List.of(flags));
    return ServiceProcess.launchJar(jar, own, all.toArray(String[]::new)).awaitReady(Duration.ofSeconds(60));
  }

  /**
   * A setting of the service's own as its environment variable ({@code idle-timeout} →
   * {@code PORTSHARE_IDLE_TIMEOUT}) rather than a flag: a jar with that option takes it, one without
   * ignores it (an unknown flag would stop its start), so any service jar starts and the scenario
   * judges what it does.
   */
  static Map<String, String> own(String option, String value) {
    return Map.of("PORTSHARE_" + option.toUpperCase(Locale.ROOT).replace('-', '_'), value);
  }

  private static final Map<String, Integer> FREE_BLOCKS = new ConcurrentHashMap<>();

  int port(int scenario, int offset) {
    if (portBase == 0) {
      return FREE_BLOCKS.computeIfAbsent(System.identityHashCode(this) + "/" + scenario, k -> freeBlock(20)) + offset;
    }
    return portBase + 20 * scenario + offset;
  }

  /**
   * The first of {@code n} consecutive ports nothing is bound to now, below the ephemeral range
   * (32768 up), where the many client sockets of a loaded machine would make a block rare.
   */
  static int freeBlock(int n) {
    Random random = new Random();
    for (int attempt = 0; attempt < 500; attempt++) {
      int first = 20_000 + random.nextInt(12_000 - n);
      boolean free = true;
      for (int p = first; p < first + n && free; p++) {
        try (ServerSocket s = new ServerSocket()) {
          s.setReuseAddress(false);
          s.bind(new InetSocketAddress(p));
        } catch (IOException e) {
          free = false;
        }
      }
      if (free) {
        return first;
      }
    }
    throw new IllegalStateException("no block of " + n + " free ports found");
  }
}
