package io.portshare.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static io.portshare.deploy.ScriptRun.read;
import static io.portshare.deploy.ScriptRun.refused;
import static io.portshare.deploy.ScriptRun.run;
import static io.portshare.deploy.ScriptRun.script;
import static org.awaitility.Awaitility.await;

import io.portshare.kit.AdminPort;
import io.portshare.kit.FreePorts;
import io.portshare.kit.HttpWire;
import io.portshare.kit.RpcWire;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The deploy scripts as a user calls them: every {@code deploy/*.sh} answers {@code --help} and
 * {@code -h} with its usage on standard output; the scripts that run services (run.sh, soak.sh here,
 * run-processes.sh in RunProcessesTest) take any service jar, by path or by module name, and refuse
 * a name that is no service module, or a path that is no jar, in one line with exit code 2.
 */
class DeployScriptsTest {

  /** Every script under deploy/, sourced libraries too: none is left out, and one that cannot run here fails. */
  static List<Path> scripts() throws IOException {
    try (Stream<Path> files = Files.list(Jars.ROOT.resolve("deploy"))) {
      List<Path> scripts = files.filter(p -> p.getFileName().toString().endsWith(".sh")).sorted()
          .collect(Collectors.toList());
      assertThat(scripts).extracting(p -> p.getFileName().toString())
          .contains("run.sh", "run-processes.sh", "soak.sh", "new-service.sh", "lib.sh");
      return scripts;
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("scripts")
  void everyScriptAnswersHelpWithItsUsageOnStandardOutput(Path script) throws Exception {
    String name = script.getFileName().toString();
    for (String help : List.of("--help", "-h")) {
      ScriptRun.Result r = run(Map.of(), "bash", script.toString(), help);
      assertThat(r.code()).as("deploy/%s %s exit code; stderr: %s", name, help, r.err()).isZero();
      assertThat(r.err()).as("deploy/%s %s on standard error", name, help).isEmpty();
      assertThat(r.out()).as("deploy/%s %s names its own command", name, help).contains("deploy/" + name);
      assertThat(r.out().lines().count()).as("deploy/%s %s: lines of usage", name, help).isGreaterThan(2);
    }
  }

  /**
   * A name that is no service module, and a path where no jar is: the scripts that take a service
   * say so in one line on standard error, with nothing on standard output, and exit 2 before they
   * build or start anything.
   */
  @Test
  void anUnknownServiceOrAMissingJarIsOneLineAndExitTwo() throws Exception {
    String run = script("run.sh");
    String processes = script("run-processes.sh");
    String soak = script("soak.sh");
    refused("run: unknown service \"no-such-service\"; expected a service jar", run, "no-such-service");
    refused("run: unknown service \"no-such-service\"; expected a service jar", run, "rpc-server", "no-such-service");
    refused("run: no service jar at missing/my-service.jar", run, "missing/my-service.jar");
    refused("run-processes: unknown service \"no-such-service\"; expected a service jar", processes, "no-such-service");
    refused("run-processes: unknown service \"bench\"", processes, "bench"); // a module, but no service
    refused("run-processes: no service jar at missing/my-service.jar", processes, "missing/my-service.jar", "2");
    refused("soak: unknown service \"no-such-service\"", soak, "--rpc-jar", "no-such-service");
    refused("soak: no service jar at missing/my-service.jar", soak, "--static-jar=missing/my-service.jar");
  }

  /**
   * {@code deploy/run.sh JAR NAME}: a jar given by its path (rpc-server's under a name of its own)
   * and a module given by its name run side by side, each with its own launcher flags
   * ({@code MY_ECHO_ARGS}, {@code STATIC_ARGS}) and its own output prefix; SIGTERM drains both, exit 0.
   */
  @Test
  void runTakesAJarByPathBesideAModuleByName(@TempDir Path elsewhere) throws Exception {
    Path jar = Files.copy(Jars.of("rpc-server"), elsewhere.resolve("my-echo.jar"));
    Jars.of("static-server");
    int base = FreePorts.block(4);
    ProcessBuilder pb = new ProcessBuilder("bash", script("run.sh"), jar.toString(), "static-server")
        .redirectErrorStream(true);
    pb.environment().put("BUILD", "0");
    pb.environment().put("MY_ECHO_ARGS", "--port " + base + " --admin-port " + (base + 1) + " --instances 1");
    pb.environment().put("STATIC_ARGS", "--port " + (base + 2) + " --admin-port " + (base + 3) + " --instances 1");
    Process script = pb.start();
    CompletableFuture<String> output = CompletableFuture.supplyAsync(() -> read(script.getInputStream()));
    try {
      await().atMost(Duration.ofSeconds(60)).until(() -> {
        if (!script.isAlive()) {
          throw new AssertionError("deploy/run.sh exited: " + output.getNow(""));
        }
        return new AdminPort(base + 1).ready() && new AdminPort(base + 3).ready();
      });
      byte[] payload = "by path".getBytes(StandardCharsets.UTF_8);
      try (RpcWire wire = new RpcWire(base)) {
        wire.transact(RpcWire.frame(payload)); // fails unless the same frame comes back
      }
      assertThat(HttpWire.get(base + 2, "/").status()).isEqualTo(200);

      new ProcessBuilder("kill", "-TERM", Long.toString(script.pid())).start().waitFor();
      assertThat(script.waitFor(60, TimeUnit.SECONDS)).isTrue();
      String out = output.get(10, TimeUnit.SECONDS);
      assertThat(script.exitValue()).as(out).isZero();
      assertThat(out.lines()).anyMatch(l -> l.startsWith("[my-echo] ") && l.contains("portshare rpc"))
          .anyMatch(l -> l.startsWith("[static]  ") && l.contains("portshare static"));
    } finally {
      script.descendants().forEach(ProcessHandle::destroyForcibly);
      script.destroyForcibly();
    }
  }

  /**
   * {@code deploy/soak.sh --rpc-jar SERVICE} runs its RPC scenarios on that jar: rpc-server's under a
   * name of its own, given by its path, holds sigterm-rpc; static-server, given by its name, does not
   * speak the frames, and the scenario fails (exit 1).
   */
  @Test
  void soakRunsItsScenariosOnTheJarItIsGiven(@TempDir Path elsewhere) throws Exception {
    Path jar = Files.copy(Jars.of("rpc-server"), elsewhere.resolve("my-echo.jar"));
    ScriptRun.Result byPath = run(Map.of("BUILD", "0"), "bash", script("soak.sh"), "--rpc-jar", jar.toString(),
        "--scenarios", "sigterm-rpc", "--port-base", "0");
    assertThat(byPath.code()).as("%s%s", byPath.out(), byPath.err()).isZero();
    assertThat(byPath.out()).containsPattern("(?m)^sigterm-rpc +ok ");

    ScriptRun.Result notRpc = run(Map.of("BUILD", "0"), "bash", script("soak.sh"), "--rpc-jar", "static-server",
        "--scenarios", "sigterm-rpc", "--port-base", "0");
    assertThat(notRpc.code()).as("%s%s", notRpc.out(), notRpc.err()).isEqualTo(1);
    assertThat(notRpc.out()).containsPattern("(?m)^sigterm-rpc +FAIL ");
  }
}
