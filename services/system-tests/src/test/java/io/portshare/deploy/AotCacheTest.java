package io.portshare.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.portshare.kit.AdminPort;
import io.portshare.kit.FreePorts;
import io.portshare.kit.RpcWire;
import io.portshare.kit.ServiceProcess;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code deploy/aot-cache.sh}: a cache trained on Java 25 or later serves the jar it was trained for
 * (a JVM under {@code -XX:AOTMode=on}, which stops when it cannot use its cache, answers a frame),
 * and another jar cannot use it; where no Java 25 is installed, the script says so in one line.
 */
class AotCacheTest {

  private static final Duration TRAINING = Duration.ofMinutes(3);

  @Test
  void badArgumentsAreOneLineAndExitTwo(@TempDir Path emptyJvmDir) throws Exception {
    String script = ScriptRun.script("aot-cache.sh");
    ScriptRun.refused("aot-cache: unknown option \"--bogus\"", script, "rpc-server", "--bogus");
    ScriptRun.refused("aot-cache: which SERVICE?", script);
    ScriptRun.refused("aot-cache: one SERVICE, not \"rpc-server\" and \"static-server\"", script,
        "rpc-server", "static-server");
    ScriptRun.refused("aot-cache: --port must be a port from 1 to 65534 (it is '0'", script,
        "rpc-server", "--port", "0");
    ScriptRun.refused("aot-cache: --warmup must be a duration such as 12s or 500ms (it is 'soon')", script,
        "rpc-server", "--warmup", "soon");
    ScriptRun.refused("aot-cache: needs Java 25 or later, and none is installed under " + emptyJvmDir,
        Map.of("PORTSHARE_JVM_DIR", emptyJvmDir.toString()), script, "rpc-server");
    if (Runtime.version().feature() < 25) {
      String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
      ScriptRun.refused("aot-cache: needs Java 25 or later; " + java + " is Java " + Runtime.version().feature(),
          Map.of("JAVA", java), script, "rpc-server");
    }
  }

  /**
   * The training and its check on a Java 25 this machine has; without one, the default lookup's
   * refusal, so that what runs is never nothing.
   */
  @Test
  void aCacheServesItsOwnJarAndNoOther(@TempDir Path dir) throws Exception {
    Path rpcJar = Jars.of("rpc-server");
    Path staticJar = Jars.of("static-server");
    String java25 = ScriptRun.java25Home();
    if (java25 == null) {
      System.out.println("AotCacheTest: no Java 25 or later installed: the script's refusal is what runs here");
      ScriptRun.refused("aot-cache: needs Java 25 or later, and none is installed under",
          ScriptRun.script("aot-cache.sh"), "rpc-server");
      return;
    }
    String java = java25 + "/bin/java";
    Path cache = dir.resolve("caches/rpc.aot");
    int port = FreePorts.block(2);
    ScriptRun.Result r = ScriptRun.run(Map.of("BUILD", "0", "JAVA", java), TRAINING, "bash",
        ScriptRun.script("aot-cache.sh"), rpcJar.toString(), "--warmup", "1s", "--port", Integer.toString(port),
        "--out", cache.toString(), "--", "--instances", "1");
    assertThat(r.code()).as("aot-cache.sh: stdout %s; stderr %s", r.out(), r.err()).isZero();
    assertThat(r.out().strip()).isEqualTo(cache.toString());
    assertThat(r.err()).contains("aot-cache: training ready in", "aot-cache: with the cache, ready in");
    assertThat(Files.size(cache)).isGreaterThan(1 << 20);

    // The cache on its own jar, under a mode that stops the JVM when it cannot use it.
    int servicePort = FreePorts.block(2);
    try (ServiceProcess rpc = ServiceProcess.exec(List.of(java, "-XX:AOTCache=" + cache, "-XX:AOTMode=on",
        "-jar", rpcJar.toString(), "--port", Integer.toString(servicePort), "--admin-port",
        Integer.toString(servicePort + 1), "--instances", "1", "--warmup", "0"), dir.resolve("rpc.log"))) {
      assertThat(new AdminPort(servicePort + 1).awaitReady(Duration.ofSeconds(60), rpc::isAlive))
          .as("rpc-server with its cache: %s", rpc.output()).isTrue();
      try (RpcWire wire = new RpcWire(servicePort)) {
        wire.transact(RpcWire.frame("trained".getBytes(StandardCharsets.UTF_8)));
      }
    }

    // Another jar cannot use it: the same mode stops that JVM before it serves.
    Path said = dir.resolve("other.log");
    Process other = new ProcessBuilder(java, "-XX:AOTCache=" + cache, "-XX:AOTMode=on", "-jar",
        staticJar.toString(), "--version").redirectErrorStream(true).redirectOutput(said.toFile()).start();
    boolean ended = other.waitFor(60, TimeUnit.SECONDS);
    other.destroyForcibly();
    assertThat(ended).as("static-server's JVM with rpc-server's cache ended within 60 s").isTrue();
    assertThat(other.exitValue()).as(Files.readString(said)).isNotZero();
  }
}
