package io.portshare.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.portshare.kit.Repository;
import io.portshare.runtime.ServiceDescriptor;
import io.portshare.runtime.Settings;
import io.portshare.runtime.config.RuntimeSettings;
import io.portshare.runtime.impl.ServiceRuntime;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What each rendered Deployment's pod must fit in, added up: the worst-case graceful stop within
 * terminationGracePeriodSeconds, and the JVM's memory caps within the container's memory limit.
 */
class DeploymentBudgetTest {

  private static final Path ROOT = Repository.root();
  private static final long MIB = 1024 * 1024;
  /**
   * An allowance for native memory besides the capped pools: thread stacks as touched, GC and
   * class metadata structures, symbol tables, malloc arenas (MALLOC_ARENA_MAX=2), Netty's natives.
   * Not measured one by one; the whole idle container (heap in use included) is about 70 MiB
   * (deploy/k8s.sh local-test, k8s/README.md).
   */
  private static final long OTHER_NATIVE = 64 * MIB;
  /** Headroom the sum leaves below the limit: 5% for what the estimate misses. */
  private static final double FILL = 0.95;

  static Stream<String> overlays() throws IOException {
    return ManifestSchemaTest.overlays(ROOT).stream();
  }

  @ParameterizedTest
  @MethodSource("overlays")
  void theWorstCaseStopFitsTheGracePeriod(String overlay, @TempDir Path dir) throws Exception {
    checkGracePeriod(ROOT, ManifestSchemaTest.render(ROOT.resolve(overlay)), dir);
  }

  @ParameterizedTest
  @MethodSource("overlays")
  void heapDirectMetaspaceCodeAndThreadsFitTheMemoryLimit(String overlay) throws Exception {
    checkMemory(ROOT, overlay, ManifestSchemaTest.render(ROOT.resolve(overlay)));
  }

  /** Each Deployment of {@code objects}, rendered in the repository at {@code root}: its worst-case stop. */
  static void checkGracePeriod(Path root, List<HasMetadata> objects, Path dir) throws Exception {
    for (Deployment d : ManifestSchemaTest.of(objects, Deployment.class)) {
      var pod = d.getSpec().getTemplate().getSpec();
      Container c = pod.getContainers().get(0);
      Duration preStop = Duration.ofSeconds(c.getLifecycle().getPreStop().getSleep().getSeconds());
      Duration drain = drainTimeout(root, d, objects, Files.createDirectories(dir.resolve(d.getMetadata().getName())));
      Duration worst = preStop.plus(drain).plus(ServiceRuntime.waitsBeyondDrain());
      assertThat(worst)
          .as("%s: preStop %s + drain-timeout %s + the runtime's waits after the drain %s", d.getMetadata().getName(),
              preStop, drain, ServiceRuntime.waitsBeyondDrain())
          .isLessThanOrEqualTo(Duration.ofSeconds(pod.getTerminationGracePeriodSeconds()));
    }
  }

  /** Each Deployment of {@code objects}, rendered from {@code overlay} of the repository at {@code root}: its memory. */
  static void checkMemory(Path root, String overlay, List<HasMetadata> objects) throws Exception {
    List<String> flags = new ArrayList<>(imageJvmFlags(root));
    assertThat(flags).as("the image picks its GC").contains("-XX:+UseSerialGC");
    for (Deployment d : ManifestSchemaTest.of(objects, Deployment.class)) {
      Container c = d.getSpec().getTemplate().getSpec().getContainers().get(0);
      List<String> all = new ArrayList<>();
      // JAVA_TOOL_OPTIONS come before the image's own flags; a later flag wins.
      c.getEnv().stream().filter(e -> e.getName().equals("JAVA_TOOL_OPTIONS")).map(EnvVar::getValue)
          .forEach(v -> all.addAll(List.of(v.trim().split("\\s+"))));
      all.addAll(flags);
      long limit = c.getResources().getLimits().get("memory").getNumericalAmount().longValueExact();
      double heapPercent = Double.parseDouble(last(all, "-XX:MaxRAMPercentage="));
      long heap = (long) (limit * heapPercent / 100);
      long direct = size(last(all, "-XX:MaxDirectMemorySize="));
      long metaspace = size(last(all, "-XX:MaxMetaspaceSize="));
      long codeCache = size(last(all, "-XX:ReservedCodeCacheSize="));
      long sum = heap + direct + metaspace + codeCache + OTHER_NATIVE;
      assertThat(sum)
          .as("%s %s: heap %d MiB + direct %d MiB + metaspace %d MiB + code cache %d MiB + other native %d MiB"
                  + " within %.0f%% of the limit %d MiB", overlay, d.getMetadata().getName(), heap / MIB, direct / MIB,
              metaspace / MIB, codeCache / MIB, OTHER_NATIVE / MIB, FILL * 100, limit / MIB)
          .isLessThanOrEqualTo((long) (limit * FILL));
    }
  }

  /**
   * The service's drain timeout as its launcher resolves it: the mounted config file, then the env,
   * read with the options of the service the image's jar declares (the ServiceDescriptor named by
   * the Deployment's component label), so any service's own keys in the file are understood.
   */
  private static Duration drainTimeout(Path root, Deployment d, List<HasMetadata> objects, Path dir) throws Exception {
    var pod = d.getSpec().getTemplate().getSpec();
    Container c = pod.getContainers().get(0);
    String configMap = pod.getVolumes().stream().filter(v -> v.getName().equals("config")).findFirst()
        .orElseThrow().getConfigMap().getName();
    ConfigMap cm = ManifestSchemaTest.of(objects, ConfigMap.class).stream()
        .filter(m -> m.getMetadata().getName().equals(configMap)).findFirst().orElseThrow();
    for (Map.Entry<String, String> file : cm.getData().entrySet()) {
      Files.writeString(dir.resolve(file.getKey()), file.getValue());
    }
    String mount = c.getVolumeMounts().stream().filter(m -> m.getName().equals("config")).findFirst().orElseThrow()
        .getMountPath();
    List<String> args = new ArrayList<>();
    for (String a : c.getArgs()) {
      args.add(a.startsWith(mount + "/") ? dir.resolve(a.substring(mount.length() + 1)).toString() : a);
    }
    String component = d.getMetadata().getLabels().get("app.kubernetes.io/component");
    Path jar = Repository.serviceJar(root, Jars.module(c.getImage()));
    try (URLClassLoader loader = new URLClassLoader(new URL[] {jar.toUri().toURL()},
        DeploymentBudgetTest.class.getClassLoader())) {
      List<ServiceDescriptor> services = ServiceLoader.load(ServiceDescriptor.class, loader).stream()
          .map(ServiceLoader.Provider::get).filter(s -> s.name().equals(component)).collect(Collectors.toList());
      assertThat(services).as("%s: the service %s in %s", d.getMetadata().getName(), component, jar).hasSize(1);
      return Settings.resolve(ServiceRuntime.options(services.get(0)), args, Map.of()).getDuration("drain-timeout");
    }
  }

  /** The jvmFlags of the image profile in the parent pom (Jib), which deploy/Dockerfile repeats. */
  static List<String> imageJvmFlags(Path root) throws Exception {
    String pom = Files.readString(root.resolve("pom.xml"));
    List<String> flags = new ArrayList<>();
    Matcher m = Pattern.compile("<jvmFlag>([^<]+)</jvmFlag>").matcher(pom);
    while (m.find()) {
      flags.add(m.group(1));
    }
    String dockerfile = Files.readString(root.resolve("deploy/Dockerfile"));
    assertThat(flags).as("deploy/Dockerfile has the image's JVM flags").isNotEmpty()
        .allSatisfy(f -> assertThat(dockerfile).contains("\"" + f + "\""));
    return flags;
  }

  private static String last(List<String> flags, String prefix) {
    String value = null;
    for (String f : flags) {
      if (f.startsWith(prefix)) {
        value = f.substring(prefix.length());
      }
    }
    assertThat(value).as("a flag %s", prefix).isNotNull();
    return value;
  }

  private static long size(String v) {
    char unit = Character.toLowerCase(v.charAt(v.length() - 1));
    long n = Long.parseLong(Character.isDigit(unit) ? v : v.substring(0, v.length() - 1));
    switch (unit) {
      case 'k': return n * 1024;
      case 'm': return n * MIB;
      case 'g': return n * 1024 * MIB;
      default: return n;
    }
  }
}
