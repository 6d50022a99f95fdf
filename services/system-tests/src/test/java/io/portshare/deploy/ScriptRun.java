package io.portshare.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** A deploy script run as a user runs it: from the repository's top, its output and errors apart. */
final class ScriptRun {

  static final Duration SCRIPT_TIMEOUT = Duration.ofSeconds(30);

  private ScriptRun() {}

  record Result(int code, String out, String err) {}

  static String script(String name) {
    return Jars.ROOT.resolve("deploy").resolve(name).toString();
  }

  static Result run(Map<String, String> env, String... command) throws Exception {
    return run(env, SCRIPT_TIMEOUT, command);
  }

  /** Runs {@code command} from the repository's top; the test fails unless it ends within {@code timeout}. */
  static Result run(Map<String, String> env, Duration timeout, String... command) throws Exception {
    ProcessBuilder pb = new ProcessBuilder(command).directory(Jars.ROOT.toFile());
    pb.environment().putAll(env);
    Process p = pb.start();
    p.getOutputStream().close();
    CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> read(p.getInputStream()));
    CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(p.getErrorStream()));
    boolean done = p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
    if (!done) {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
    }
    assertThat(done).as("%s finished within %s", String.join(" ", command), timeout).isTrue();
    return new Result(p.exitValue(), out.get(10, TimeUnit.SECONDS), err.get(10, TimeUnit.SECONDS));
  }

  /** {@code args} are refused, with only {@code BUILD=0} in the environment: see the overload. */
  static void refused(String firstWords, String... args) throws Exception {
    refused(firstWords, Map.of(), args);
  }

  /** {@code args} are refused: exit 2, nothing on standard output, one line on standard error that starts so. */
  static void refused(String firstWords, Map<String, String> env, String... args) throws Exception {
    String[] command = Stream.concat(Stream.of("bash"), Stream.of(args)).toArray(String[]::new);
    Map<String, String> withBuild = new HashMap<>(env);
    withBuild.putIfAbsent("BUILD", "0");
    Result r = run(withBuild, command);
    String what = String.join(" ", args);
    assertThat(r.code).as("%s: exit code; stdout %s; stderr %s", what, r.out, r.err).isEqualTo(2);
    assertThat(r.out).as("%s: standard output", what).isEmpty();
    assertThat(r.err.lines().collect(Collectors.toList())).as("%s: standard error", what).hasSize(1)
        .allMatch(l -> l.startsWith(firstWords), "starts with " + firstWords);
  }

  /** The newest installed JDK 25 or later, as the deploy scripts find it (deploy/java.sh), or null. */
  static String java25Home() throws Exception {
    Result r = run(Map.of(), "bash", "-c", ". deploy/java.sh && portshare_java_home_of 25");
    return r.code == 0 && !r.out.isBlank() ? r.out.strip() : null;
  }

  static String read(InputStream in) {
    try {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
