package io.portshare.bench.seeds;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * What one run of the seeds does: which seeds, each one's load and length, the servers' jars and
 * workers, the tools, where the servers listen (PORT onwards) and where logs go.
 *
 * @param wrkTimeout wrk's {@code --timeout} in 000: a request unanswered that long counts as a timeout
 * @param workers static-server event loops (or processes) and nginx workers in seeds 000, 001 and 004
 * @param serverWarmup unmeasured wrk load on each static-server after it starts, spread over its paths
 */
public record SeedPlan(
    List<String> seeds,
    // 000
    int connections, int wrkProcesses, List<String> sizes, Duration closeDuration, Duration wrkTimeout, int closeRounds,
    // 001
    int httperfs, int sessions, int sessionRounds, Duration httperfLimit,
    // 002
    int files, int fileKib, Duration transferDuration, int transferRounds,
    // 003
    List<Integer> rpcWorkers, List<String> rpcModes, Duration rpcDuration, Duration rpcWarmup, int rpcConnections,
    int rpcRounds,
    // 004
    OverloadPlan overload,
    // servers and tools
    int workers, Duration serverWarmup, int port, Path staticJar, Path rpcJar, List<String> jvmOptions,
    List<String> serverArgs, String nginx, Path nginxTemplate, String wrk, String httperf, Path cEcho, Path cLoad,
    String java, String classpath, Path scratchParent, Path logDir, int firstAddress) {

  public SeedPlan {
    seeds = List.copyOf(seeds);
    sizes = List.copyOf(sizes);
    rpcWorkers = List.copyOf(rpcWorkers);
    rpcModes = List.copyOf(rpcModes);
    jvmOptions = List.copyOf(jvmOptions);
    serverArgs = List.copyOf(serverArgs);
  }

  boolean runs(String seed) {
    return seeds.contains(seed);
  }
}
