package io.portshare.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.portshare.kit.Ci;
import io.portshare.kit.HttpWire;
import io.portshare.kit.ServiceProcess;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * deploy/new-service.sh as a newcomer runs it, in a copy of the repository (the tree this build
 * runs in is left alone): the service it writes builds offline with the wrapper and passes its own
 * test, its jar runs under the launcher on its generated config file and answers its route and its
 * static files (unpacked from the jar), its
 * Kubernetes base renders into the shape every shipped service has, and systemd accepts its units.
 */
class NewServiceTest {

  private static final String NAME = "greeter";
  private static final String MODULE = NAME + "-server";
  private static final Duration BUILD_TIMEOUT = Duration.ofMinutes(5);

  @TempDir
  Path copy;

  @Test
  void aGeneratedServiceBuildsRunsAndRendersLikeTheShippedOnes() throws Exception {
    copyRepository(Jars.ROOT, copy);

    String generated = run(copy, Duration.ofSeconds(30), "bash", "deploy/new-service.sh", NAME);
    assertThat(generated).contains("wrote " + MODULE + "/");
    assertThat(Files.readString(copy.resolve("pom.xml"))).contains("<module>" + MODULE + "</module>");
    assertThat(Jars.ROOT.resolve(MODULE)).as("the repository itself is not touched").doesNotExist();
    // A second run writes nothing and says why, in one line, with the usage exit code.
    Process again = new ProcessBuilder("bash", "deploy/new-service.sh", NAME).directory(copy.toFile())
        .redirectErrorStream(true).start();
    String againOut = new String(again.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(again.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(again.exitValue()).as(againOut).isEqualTo(2);
    assertThat(againOut.strip()).isEqualTo("new-service: " + MODULE + " exists already; nothing written");

    // Offline, with the wrapper: the runtime and the new module, and the new module's own test.
    List<String> mvn = new ArrayList<>(List.of("./mvnw", "-B", "-q", "-o", "-pl", MODULE, "-am", "package",
        "-Dtest=GreeterServiceTest", "-Dsurefire.failIfNoSpecifiedTests=false"));
    String localRepository = System.getProperty("portshare.maven.repo.local", "");
    if (!localRepository.isBlank()) {
      mvn.add("-Dmaven.repo.local=" + localRepository);
    }
    run(copy, BUILD_TIMEOUT, mvn.toArray(String[]::new));
    Path report = copy.resolve(MODULE + "/target/surefire-reports/TEST-io.portshare.greeter.GreeterServiceTest.xml");
    assertThat(Files.readString(report)).contains("tests=\"5\"").contains("failures=\"0\"").contains("errors=\"0\"");

    // The jar through the launcher, on the config file its Kubernetes base mounts.
    Path jar = copy.resolve(MODULE + "/target/portshare-" + MODULE + ".jar");
    Path config = copy.resolve("k8s/base/" + MODULE + "/" + NAME + ".yaml");
    try (ServiceProcess service = ServiceProcess.launchJar(jar, Map.of(), "--config", config.toString(),
        "--port", "0", "--admin-port", "0", "--instances", "2", "--log-format", "text", "--warmup", "2s")) {
      service.awaitReady(Duration.ofSeconds(60));
      // The warm-up's GET / (the webroot's index page, unpacked from the jar) was answered every time.
      assertThat(service.output()).contains("with warm-up").contains(" 0 failed").doesNotContain("warm-up: the service failed");
      HttpWire.Response hello = HttpWire.get(service.port(), "/hello");
      assertThat(hello.status()).isEqualTo(200);
      assertThat(hello.text()).isEqualTo("hello from " + NAME + "\n");
      HttpWire.Response index = HttpWire.get(service.port(), "/");
      assertThat(index.status()).isEqualTo(200);
      assertThat(index.text()).contains("<title>" + NAME + "</title>");
      assertThat(HttpWire.get(service.port(), "/no-such-file.txt").status()).isEqualTo(404);
      assertThat(service.admin().metrics().value("portshare_info", "service", NAME, "mode", "reuseport",
          "instances", "2")).contains(1.0);
      service.terminate();
      assertThat(service.awaitExit(Duration.ofSeconds(30))).as(service.output()).isZero();
    }

    checkManifests(copy.resolve("k8s/base/" + MODULE));
    checkSystemdUnits(copy.resolve("deploy/systemd"));
    // Last, for without kubectl or a network namespace it skips (locally) or fails (CI), saying which.
    checkOverlays(copy);
  }

  /**
   * The generated service is in the dev and prod overlays beside the shipped ones, and every check
   * the shipped services pass in this repository it passes in the copy: every kustomization renders
   * and keeps the deploy rules, the overlays size every service of k8s/base, the ServiceMonitor
   * component scrapes it, its stop and memory fit its pod, and its pod runs as its spec says.
   */
  private static void checkOverlays(Path root) throws Exception {
    Jars.requireKubectl();
    assertThat(ManifestSchemaTest.services(root)).contains(MODULE, "rpc-server", "static-server");
    for (String overlay : List.of("dev", "prod")) {
      assertThat(ManifestSchemaTest.of(ManifestSchemaTest.render(root.resolve("k8s/overlays/" + overlay)), Deployment.class))
          .as("the %s overlay's Deployments", overlay).extracting(d -> d.getMetadata().getName())
          .containsExactlyInAnyOrder("rpc-server", "static-server", MODULE);
    }
    for (String dir : ManifestSchemaTest.kustomizations(root)) {
      ManifestSchemaTest.checkKustomization(root, dir);
    }
    ManifestSchemaTest.checkOverlays(root);
    for (String overlay : List.of("dev", "prod")) {
      ManifestTagTest.checkTagged(ManifestTagTest.render(root, overlay, "0.1.0-1a2b3c4"), "0.1.0-1a2b3c4");
    }
    Path checks = Files.createTempDirectory(root, "checks");
    ManifestSchemaTest.checkServiceMonitor(root);
    for (String overlay : ManifestSchemaTest.overlays(root)) {
      List<HasMetadata> objects = ManifestSchemaTest.render(root.resolve(overlay));
      DeploymentBudgetTest.checkMemory(root, overlay, objects);
      // The shipped services' jars are not built in the copy: their stop is checked in the repository.
      List<HasMetadata> generated = objects.stream()
          .filter(o -> !(o instanceof Deployment) || o.getMetadata().getName().equals(MODULE))
          .collect(Collectors.toList());
      DeploymentBudgetTest.checkGracePeriod(root, generated, Files.createDirectories(checks.resolve(overlay)));
    }
    Ci.require(PodContractTest.canRunPods(), "cannot make a network namespace here (unshare --net needs root):"
        + " the generated service's pods are not run");
    for (String overlay : List.of("dev", "prod")) {
      assertThat(PodContractTest.runDeployments(root, overlay, checks.resolve("pods"), MODULE::equals))
          .as("pods run from the %s overlay", overlay).containsExactly(MODULE);
    }
  }

  /**
   * Rendered with kubectl when there is one (CI installs it), checked as ManifestSchemaTest checks
   * the shipped services; without it (a local run) the ServiceValues the component reads are parsed.
   */
  private static void checkManifests(Path base) throws Exception {
    if (!Jars.hasKubectl() && !Ci.active()) {
      GenericKubernetesResource values = new KubernetesSerialization()
          .unmarshal(Files.readString(base.resolve("values.yaml")), GenericKubernetesResource.class);
      assertThat(values.getKind()).isEqualTo("ServiceValues");
      assertThat(values.getMetadata().getName()).isEqualTo(MODULE);
      assertThat((Object) values.get("spec", "port")).isEqualTo(8000);
      assertThat((Object) values.get("spec", "adminPort")).isEqualTo(8001);
      assertThat((Object) values.get("spec", "config")).isEqualTo(NAME + ".yaml");
      return;
    }
    List<HasMetadata> objects = ManifestSchemaTest.render(base);
    for (HasMetadata o : objects) {
      ManifestSchemaTest.assertNoUnknownFields(o, o.getKind() + "/" + o.getMetadata().getName());
    }
    ManifestSchemaTest.checkDeployRules(objects, true);
    assertThat(objects).extracting(HasMetadata::getKind).containsExactlyInAnyOrder("ConfigMap", "Service",
        "Deployment", "PodDisruptionBudget", "HorizontalPodAutoscaler", "NetworkPolicy");
    assertThat(objects).filteredOn(o -> !o.getKind().equals("ConfigMap"))
        .allSatisfy(o -> assertThat(o.getMetadata().getName()).isEqualTo(MODULE));
    Deployment d = ManifestSchemaTest.of(objects, Deployment.class).get(0);
    Container c = d.getSpec().getTemplate().getSpec().getContainers().get(0);
    // Untagged until deployed: deploy/k8s.sh sets the build's tag (ManifestTagTest, checkOverlays below).
    assertThat(c.getImage()).isEqualTo("portshare-" + MODULE + ":untagged");
    assertThat(c.getArgs()).containsExactly("--config", "/etc/portshare/" + NAME + ".yaml");
    assertThat(c.getPorts()).extracting(ContainerPort::getName, ContainerPort::getContainerPort)
        .containsExactly(tuple("http", 8000),
            tuple("admin", 8001));
    ConfigMap cm = ManifestSchemaTest.of(objects, ConfigMap.class).get(0);
    assertThat(cm.getData()).containsOnlyKeys(NAME + ".yaml");
  }

  /** systemd-analyze reads instance 0 of the new units with the shared drop-ins. */
  private void checkSystemdUnits(Path units) throws Exception {
    Path dir = Files.createDirectories(copy.resolve("units"));
    SystemdUnitsTest.copyDropIns(dir);
    Path socket = Files.copy(units.resolve("portshare-" + NAME + "@.socket"), dir.resolve("portshare-" + NAME + "@0.socket"));
    Path unit = Files.copy(units.resolve("portshare-" + NAME + "@.service"), dir.resolve("portshare-" + NAME + "@0.service"));
    assertThat(Files.readString(socket)).contains("\nListenStream=8000\n");
    assertThat(Files.readString(unit)).contains("\nEnvironment=PORTSHARE_PORT=8000\n");
    SystemdUnitsTest.verify(socket, unit);
  }

  /** The working tree without build output or git metadata: what a fresh clone holds. */
  private static void copyRepository(Path from, Path to) throws IOException {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path f : (Iterable<Path>) files::iterator) {
        Path rel = from.relativize(f);
        if (rel.toString().isEmpty()) {
          continue;
        }
        if (rel.getName(0).toString().equals(".git") || stream(rel).anyMatch(p -> p.equals("target"))) {
          continue;
        }
        Path dest = to.resolve(rel.toString());
        if (Files.isDirectory(f)) {
          Files.createDirectories(dest);
        } else {
          Files.copy(f, dest, StandardCopyOption.COPY_ATTRIBUTES);
        }
      }
    }
  }

  private static Stream<String> stream(Path rel) {
    List<String> parts = new ArrayList<>();
    rel.forEach(p -> parts.add(p.toString()));
    return parts.stream();
  }

  /** Runs a command in {@code dir} on this JVM's JDK; fails with its output unless it exits 0 in time. */
  private static String run(Path dir, Duration timeout, String... command) throws Exception {
    return CommandRun.inDir(dir, timeout, List.of(command));
  }
}
