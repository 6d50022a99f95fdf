package io.portshare.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.portshare.kit.Ci;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.yaml.snakeyaml.Yaml;

/**
 * The pod contract: each Deployment that an overlay renders is run the way its pod would run it
 * (the service jar with the container's args and env, downward-API values substituted, ConfigMap
 * files where they are mounted) in a network namespace of its own, as a pod has. Then every probe
 * answers 200, the process listens on exactly the container ports, the Service targets them,
 * selectors match, the drain fits in the grace period, and SIGTERM stops it with exit 0.
 */
class PodContractTest {

  @ParameterizedTest
  @ValueSource(strings = {"dev", "prod"})
  void everyDeploymentRunsAsItsPodSpecSays(String overlay, @TempDir Path tmp) throws Exception {
    Jars.requireKubectl();
    Ci.require(canRunPods(), "cannot make a network namespace here (unshare --net needs root)");
    assertThat(runDeployments(Jars.ROOT, overlay, tmp, name -> true)).isNotEmpty();
  }

  /** Whether this machine lets the test make a network namespace for a pod. */
  static boolean canRunPods() {
    return Jars.commandWorks("unshare", "--net", "true");
  }

  /**
   * Runs each Deployment of {@code overlay} in the repository at {@code root} whose name {@code which}
   * accepts, from that repository's jars, and checks its pod contract; returns the names it ran.
   */
  static List<String> runDeployments(Path root, String overlay, Path tmp, Predicate<String> which) throws Exception {
    PodContractTest contract = new PodContractTest();
    List<Map<String, Object>> objects = render(root, overlay);
    List<String> ran = new ArrayList<>();
    for (Map<String, Object> d : kind(objects, "Deployment")) {
      String name = str(contract.get(d, "metadata", "name"));
      if (which.test(name)) {
        contract.checkDeployment(root, objects, d, tmp.resolve(overlay).resolve(name));
        ran.add(name);
      }
    }
    return ran;
  }

  private void checkDeployment(Path root, List<Map<String, Object>> objects, Map<String, Object> d, Path dir)
      throws Exception {
    Files.createDirectories(dir);
    String name = str(get(d, "metadata", "name"));
    Map<String, Object> podSpec = get(d, "spec", "template", "spec");
    Map<String, String> podLabels = get(d, "spec", "template", "metadata", "labels");
    assertThat(podLabels).containsAllEntriesOf(get(d, "spec", "selector", "matchLabels"));
    Map<String, Object> c = this.<List<Map<String, Object>>>get(podSpec, "containers").get(0);
    Path jar = Jars.of(root, Jars.module(str(c.get("image"))));

    // ConfigMap volumes become directories; their mount paths are rewritten in args and files.
    Map<String, Path> mounts = new HashMap<>();
    for (Map<String, Object> m : this.<List<Map<String, Object>>>get(c, "volumeMounts")) {
      Map<String, Object> volume = this.<List<Map<String, Object>>>get(podSpec, "volumes").stream()
          .filter(v -> v.get("name").equals(m.get("name"))).findFirst().orElseThrow();
      if (volume.containsKey("configMap")) {
        mounts.put(str(m.get("mountPath")), Files.createDirectories(dir.resolve(str(m.get("name")))));
      }
    }
    for (Map<String, Object> m : this.<List<Map<String, Object>>>get(c, "volumeMounts")) {
      Map<String, Object> volume = this.<List<Map<String, Object>>>get(podSpec, "volumes").stream()
          .filter(v -> v.get("name").equals(m.get("name"))).findFirst().orElseThrow();
      if (volume.containsKey("configMap")) {
        String cm = str(get(volume, "configMap", "name"));
        Map<String, Object> configMap = kind(objects, "ConfigMap").stream()
            .filter(o -> get(o, "metadata", "name").equals(cm)).findFirst()
            .orElseThrow(() -> new AssertionError(name + " mounts a missing ConfigMap " + cm));
        for (Map.Entry<String, Object> e : this.<Map<String, Object>>get(configMap, "data").entrySet()) {
          Files.writeString(mounts.get(str(m.get("mountPath"))).resolve(e.getKey()), rewrite(str(e.getValue()), mounts));
        }
      }
    }
    List<String> command = new ArrayList<>(List.of("unshare", "--net", "sh", "-c",
        "ip link set lo up && exec \"$@\"", "pod", "java", "-Xmx256m", "-jar", jar.toString()));
    List<Object> args = get(c, "args");
    args.forEach(a -> command.add(rewrite(str(a), mounts)));
    Map<String, String> env = new HashMap<>();
    Map<String, Object> limits = get(c, "resources", "limits");
    for (Map<String, Object> e : this.<List<Map<String, Object>>>get(c, "env")) {
      if (e.containsKey("value")) {
        env.put(str(e.get("name")), str(e.get("value")));
      } else {
        Map<String, Object> ref = get(e, "valueFrom", "resourceFieldRef");
        assertThat(ref.get("resource")).isEqualTo("limits.cpu");
        BigDecimal cpu = new BigDecimal(str(limits.get("cpu")));
        BigDecimal divisor = new BigDecimal(str(ref.getOrDefault("divisor", "1")));
        env.put(str(e.get("name")), cpu.divide(divisor, 0, RoundingMode.CEILING).toPlainString());
      }
    }
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(dir.resolve("pod.log").toFile());
    pb.environment().keySet().removeIf(k -> k.startsWith("PORTSHARE_"));
    pb.environment().putAll(env);
    Process pod = pb.start();
    try {
      Map<String, Integer> ports = new HashMap<>();
      for (Map<String, Object> p : this.<List<Map<String, Object>>>get(c, "ports")) {
        ports.put(str(p.get("name")), ((Number) p.get("containerPort")).intValue());
      }
      Map<String, Object> readiness = get(c, "readinessProbe", "httpGet");
      await().atMost(Duration.ofSeconds(120)).until(() -> {
        assertThat(pod.isAlive()).as("%s exited: %s", name, log(dir)).isTrue();
        return httpStatus(pod, port(readiness.get("port"), ports), str(readiness.get("path"))) == 200;
      });
      for (String probe : List.of("startupProbe", "readinessProbe", "livenessProbe")) {
        Map<String, Object> http = get(c, probe, "httpGet");
        assertThat(httpStatus(pod, port(http.get("port"), ports), str(http.get("path"))))
            .as("%s %s %s", name, probe, http).isEqualTo(200);
      }
      Map<String, String> annotations = get(d, "spec", "template", "metadata", "annotations");
      assertThat(httpStatus(pod, Integer.parseInt(annotations.get("prometheus.io/port")),
          annotations.get("prometheus.io/path"))).isEqualTo(200);
      assertThat(listening(pod)).as("%s listens on exactly its container ports", name)
          .isEqualTo(new TreeSet<>(ports.values()));

      Map<String, Object> service = kind(objects, "Service").stream()
          .filter(s -> podLabels.entrySet().containsAll(this.<Map<String, String>>get(s, "spec", "selector").entrySet()))
          .findFirst().orElseThrow(() -> new AssertionError("no Service selects " + name));
      for (Map<String, Object> sp : this.<List<Map<String, Object>>>get(service, "spec", "ports")) {
        assertThat(ports.values()).as("%s Service targetPort %s", name, sp.get("targetPort"))
            .contains(port(sp.get("targetPort"), ports));
      }

      // The drain (from the mounted config file or the env) and the preStop sleep fit in the grace period.
      String drain = env.get("PORTSHARE_DRAIN_TIMEOUT");
      for (Path mounted : mounts.values()) {
        try (var files = Files.list(mounted)) {
          for (Path f : (Iterable<Path>) files::iterator) {
            if (drain == null && f.toString().endsWith(".yaml")) {
              Object v = new Yaml().<Map<String, Object>>load(Files.readString(f)).get("drain-timeout");
              drain = v == null ? null : str(v);
            }
          }
        }
      }
      assertThat(drain).as("%s sets its drain timeout", name).isNotNull().endsWith("s");
      long drainSeconds = Long.parseLong(drain.substring(0, drain.length() - 1));
      long preStop = ((Number) get(c, "lifecycle", "preStop", "sleep", "seconds")).longValue();
      long grace = ((Number) podSpec.get("terminationGracePeriodSeconds")).longValue();
      assertThat(preStop + drainSeconds).as("%s preStop + drain < grace", name).isLessThan(grace);

      new ProcessBuilder("kill", "-TERM", Long.toString(pod.pid())).start().waitFor();
      assertThat(pod.waitFor(grace, TimeUnit.SECONDS)).as("%s stops within its grace period", name).isTrue();
      assertThat(pod.exitValue()).as("%s exit code; log: %s", name, log(dir)).isZero();
    } finally {
      pod.destroyForcibly();
    }
  }

  private static String rewrite(String s, Map<String, Path> mounts) {
    for (Map.Entry<String, Path> m : mounts.entrySet()) {
      s = s.replace(m.getKey(), m.getValue().toString());
    }
    return s;
  }

  private static int port(Object p, Map<String, Integer> named) {
    if (p instanceof Number) {
      return ((Number) p).intValue();
    }
    Integer n = named.get(str(p));
    if (n == null) {
      throw new AssertionError("no container port named " + p + " in " + named);
    }
    return n;
  }

  /** An HTTP GET from inside the pod's network namespace, as the kubelet's probe would do it. */
  private static int httpStatus(Process pod, int port, String path) throws IOException, InterruptedException {
    String out = inPod(pod, "curl", "-s", "-o", "/dev/null", "-m", "10", "-w", "%{http_code}",
        "http://127.0.0.1:" + port + path);
    return out.isBlank() ? 0 : Integer.parseInt(out.trim());
  }

  private static Set<Integer> listening(Process pod) throws IOException, InterruptedException {
    return inPod(pod, "ss", "-Hltn").lines().filter(l -> !l.isBlank())
        .map(l -> l.trim().split("\\s+")[3]).map(a -> Integer.parseInt(a.substring(a.lastIndexOf(':') + 1)))
        .collect(Collectors.toCollection(TreeSet::new));
  }

  private static String inPod(Process pod, String... command) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of("nsenter", "-t", Long.toString(pod.pid()), "-n"));
    cmd.addAll(List.of(command));
    Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    p.waitFor(30, TimeUnit.SECONDS);
    return out;
  }

  private static String log(Path dir) {
    try {
      return Files.readString(dir.resolve("pod.log"));
    } catch (IOException e) {
      return "(no log)";
    }
  }

  private static List<Map<String, Object>> render(Path root, String overlay) throws IOException, InterruptedException {
    Process p = new ProcessBuilder("kubectl", "kustomize", root.resolve("k8s/overlays").resolve(overlay).toString())
        .redirectError(ProcessBuilder.Redirect.INHERIT).start();
    String yaml = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).isZero();
    List<Map<String, Object>> objects = new ArrayList<>();
    for (Object o : new Yaml().loadAll(yaml)) {
      if (o != null) {
        @SuppressWarnings("unchecked")
        Map<String, Object> m = (Map<String, Object>) o;
        objects.add(m);
      }
    }
    return objects;
  }

  private static List<Map<String, Object>> kind(List<Map<String, Object>> objects, String kind) {
    return objects.stream().filter(o -> kind.equals(o.get("kind"))).collect(Collectors.toList());
  }

  @SuppressWarnings("unchecked")
  private <T> T get(Map<String, Object> m, String... path) {
    Object o = m;
    for (String key : path) {
      if (!(o instanceof Map)) {
        throw new AssertionError("no " + String.join(".", path) + " in " + m);
      }
      o = ((Map<String, Object>) o).get(key);
    }
    if (o == null) {
      throw new AssertionError("no " + String.join(".", path));
    }
    return (T) o;
  }

  private static String str(Object o) {
    return String.valueOf(o);
  }
}
