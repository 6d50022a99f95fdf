package io.portshare.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.networking.v1.Ingress;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.portshare.kit.Repository;
import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.yaml.snakeyaml.Yaml;

/**
 * Every kustomization under k8s/ renders with {@code kubectl kustomize}, every object parses into
 * the typed Kubernetes model with no field the model does not know, and the objects keep the
 * promises of the deploy design (hardened pods, Guaranteed QoS, probes on the admin port, ...).
 * What the process does with these specs is checked by the contract test of the bench module.
 */
class ManifestSchemaTest {

  private static final Path ROOT = Repository.root();
  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();
  /** The overlays k8s/README.md says have no autoscaling. */
  private static final List<String> NOT_AUTOSCALED = List.of("k8s/overlays/dev", "k8s/overlays/bench");
  /** The service the bench overlay runs, beside its Job: the one the Job drives. */
  private static final String BENCHED = "rpc-server";
  /**
   * The Prometheus Operator's kinds (the ServiceMonitor component, in prod), which the typed model
   * does not know: the ServiceMonitor's fields are checked below ({@link #checkServiceMonitor}),
   * the PrometheusRule's spec is the rules file, which promtool checks (MonitoringTest).
   */
  private static final List<String> OPERATOR_KINDS = List.of("monitoring.coreos.com/v1 ServiceMonitor",
      "monitoring.coreos.com/v1 PrometheusRule");

  static Stream<String> kustomizations() throws IOException {
    return kustomizations(ROOT).stream();
  }

  /** k8s/base, each service's base and each overlay of the repository at {@code root}. */
  static List<String> kustomizations(Path root) throws IOException {
    List<String> dirs = new ArrayList<>(List.of("k8s/base"));
    services(root).forEach(s -> dirs.add("k8s/base/" + s));
    dirs.addAll(overlays(root));
    return dirs;
  }

  /** The overlays of the repository at {@code root}, e.g. {@code k8s/overlays/dev}. */
  static List<String> overlays(Path root) throws IOException {
    try (Stream<Path> children = Files.list(root.resolve("k8s/overlays"))) {
      return children.filter(Files::isDirectory).map(p -> root.relativize(p).toString()).sorted()
          .collect(Collectors.toList());
    }
  }

  /** The services of the repository at {@code root}: the folders of k8s/base, each a service's base. */
  static List<String> services(Path root) throws IOException {
    try (Stream<Path> children = Files.list(root.resolve("k8s/base"))) {
      return children.filter(Files::isDirectory)
          .map(p -> p.getFileName().toString()).sorted().collect(Collectors.toList());
    }
  }

  @ParameterizedTest
  @MethodSource("kustomizations")
  void rendersIntoTheTypedModelAndKeepsTheDeployRules(String dir) throws Exception {
    checkKustomization(ROOT, dir);
  }

  @Test
  void overlaysSizeEveryService() throws Exception {
    assertThat(services(ROOT)).as("services in k8s/base").contains("rpc-server", "static-server");
    checkOverlays(ROOT);
  }

  /** One kustomization of the repository at {@code root}, rendered: known kinds, known fields, the deploy rules. */
  static void checkKustomization(Path root, String dir) throws Exception {
    List<HasMetadata> objects = render(root.resolve(dir));
    assertThat(objects).isNotEmpty();
    for (HasMetadata o : objects) {
      if (OPERATOR_KINDS.contains(o.getApiVersion() + " " + o.getKind())) {
        continue;
      }
      assertThat(o).as("%s %s is a kind the model knows", o.getKind(), name(o))
          .isNotInstanceOf(GenericKubernetesResource.class);
      assertNoUnknownFields(o, o.getKind() + "/" + name(o));
    }
    checkDeployRules(objects, !NOT_AUTOSCALED.contains(dir));
  }

  /**
   * What each overlay of the repository at {@code root} makes of every service in its k8s/base:
   * dev runs each as one small pod, prod autoscales each within its bounds and spreads its pods,
   * bench runs the benchmarked service only. NewServiceTest runs it on a copy with a generated service.
   */
  static void checkOverlays(Path root) throws Exception {
    List<String> services = services(root);
    Path overlays = root.resolve("k8s/overlays");
    List<HasMetadata> dev = render(overlays.resolve("dev"));
    assertThat(of(dev, HorizontalPodAutoscaler.class)).isEmpty();
    assertThat(of(dev, Deployment.class)).extracting(ManifestSchemaTest::name).as("dev runs every service of k8s/base")
        .containsExactlyInAnyOrderElementsOf(services);
    assertThat(of(dev, Deployment.class)).allSatisfy(d -> {
      assertThat(d.getSpec().getReplicas()).isEqualTo(1);
      assertThat(d.getSpec().getTemplate().getSpec().getAffinity()).as("%s: one pod, nothing to spread", name(d)).isNull();
      assertThat(d.getSpec().getTemplate().getSpec().getTopologySpreadConstraints()).isNullOrEmpty();
    });

    List<HasMetadata> prod = render(overlays.resolve("prod"));
    assertThat(of(prod, Deployment.class)).extracting(ManifestSchemaTest::name).as("prod runs every service of k8s/base")
        .containsExactlyInAnyOrderElementsOf(services);
    assertThat(of(prod, HorizontalPodAutoscaler.class)).extracting(h -> h.getSpec().getScaleTargetRef().getName())
        .containsExactlyInAnyOrderElementsOf(services);
    assertThat(of(prod, HorizontalPodAutoscaler.class)).allSatisfy(h -> {
      assertThat(h.getSpec().getMinReplicas()).isEqualTo(3);
      assertThat(h.getSpec().getMaxReplicas()).isEqualTo(12);
    });
    @SuppressWarnings("unchecked")
    List<Map<String, String>> images = (List<Map<String, String>>) new Yaml()
        .<Map<String, Object>>load(Files.readString(overlays.resolve("prod/kustomization.yaml"))).get("images");
    assertThat(of(prod, Deployment.class)).allSatisfy(d -> {
      var pod = d.getSpec().getTemplate().getSpec();
      Map<String, String> own = d.getSpec().getSelector().getMatchLabels();
      var term = pod.getAffinity().getPodAntiAffinity().getPreferredDuringSchedulingIgnoredDuringExecution().get(0)
          .getPodAffinityTerm();
      assertThat(term.getTopologyKey()).isEqualTo("kubernetes.io/hostname");
      assertThat(term.getLabelSelector().getMatchLabels()).as("%s: its pods avoid each other's nodes", name(d))
          .isEqualTo(own);
      var spread = pod.getTopologySpreadConstraints().get(0);
      assertThat(spread.getTopologyKey()).isEqualTo("topology.kubernetes.io/zone");
      assertThat(spread.getLabelSelector().getMatchLabels()).as("%s: its pods spread over zones", name(d))
          .isEqualTo(own);
      // The prod overlay is where every image is pointed at a registry.
      String image = pod.getContainers().get(0).getImage().split(":")[0];
      assertThat(images).as("prod's images: has %s", image).anySatisfy(i -> assertThat(i.get("name")).isEqualTo(image));
    });
    // TLS ends at the Ingress (docs/deploy.md): every host it routes has its certificate, and every
    // backend is a Service of the render, on a port that Service has.
    List<Ingress> ingresses = of(prod, Ingress.class);
    assertThat(ingresses).as("prod's Ingress").isNotEmpty();
    for (Ingress ingress : ingresses) {
      List<String> tlsHosts = ingress.getSpec().getTls().stream().peek(t -> assertThat(t.getSecretName()).isNotBlank())
          .flatMap(t -> t.getHosts().stream()).collect(Collectors.toList());
      for (var rule : ingress.getSpec().getRules()) {
        assertThat(tlsHosts).as("Ingress %s: TLS for %s", name(ingress), rule.getHost()).contains(rule.getHost());
        for (var path : rule.getHttp().getPaths()) {
          var backend = path.getBackend().getService();
          Service svc = of(prod, Service.class).stream().filter(x -> name(x).equals(backend.getName())).findFirst()
              .orElseThrow(() -> new AssertionError("Ingress " + name(ingress) + ": no Service " + backend.getName()));
          assertThat(svc.getSpec().getPorts()).as("Ingress %s: Service %s's port %s", name(ingress), name(svc),
              backend.getPort()).anySatisfy(p -> {
                if (backend.getPort().getName() != null) {
                  assertThat(p.getName()).isEqualTo(backend.getPort().getName());
                } else {
                  assertThat(p.getPort()).isEqualTo(backend.getPort().getNumber());
                }
              });
          assertThat(backend.getPort().getName()).as("Ingress %s routes to the traffic port", name(ingress))
              .isNotEqualTo("admin");
        }
      }
    }

    List<HasMetadata> bench = render(overlays.resolve("bench"));
    assertThat(of(bench, Deployment.class)).extracting(ManifestSchemaTest::name).containsExactly(BENCHED);
    Deployment benched = of(bench, Deployment.class).get(0);
    Map<String, String> serverLabels = benched.getSpec().getTemplate().getMetadata().getLabels();
    Job job = of(bench, Job.class).get(0);
    var jobPod = job.getSpec().getTemplate().getSpec();
    Container driver = jobPod.getContainers().get(0);
    // The load goes to the server pods around kube-proxy: a headless Service of theirs, on the traffic port.
    String[] target = driver.getArgs().get(driver.getArgs().indexOf("--target") + 1).split(":");
    Service direct = of(bench, Service.class).stream().filter(s -> name(s).equals(target[0])).findFirst()
        .orElseThrow(() -> new AssertionError("the bench Job's --target names no Service: " + target[0]));
    assertThat(headless(direct)).as("Service %s is headless", name(direct)).isTrue();
    assertThat(serverLabels).as("Service %s selects the %s pods", name(direct), BENCHED)
        .containsAllEntriesOf(direct.getSpec().getSelector());
    ServicePort traffic = direct.getSpec().getPorts().stream().filter(p -> p.getPort() == Integer.parseInt(target[1]))
        .findFirst().orElseThrow(() -> new AssertionError("Service " + name(direct) + " has no port " + target[1]));
    assertThat(traffic.getTargetPort().getStrVal()).isEqualTo(benched.getSpec().getTemplate().getSpec().getContainers()
        .get(0).getPorts().get(0).getName());
    // The server's CPU: every server pod's /metrics, on its admin port, at the headless Service's addresses.
    String[] metrics = driver.getArgs().get(driver.getArgs().indexOf("--server-metrics") + 1).split(":");
    assertThat(metrics[0]).isEqualTo(name(direct));
    assertThat(direct.getSpec().getPorts()).as("Service %s's admin port", name(direct)).anySatisfy(p -> {
      assertThat(p.getName()).isEqualTo("admin");
      assertThat(p.getPort()).isEqualTo(Integer.parseInt(metrics[1]));
    });
    // ... which the server's NetworkPolicy opens to the Job's pods, as it does to the monitoring namespace.
    Map<String, String> jobLabels = job.getSpec().getTemplate().getMetadata().getLabels();
    NetworkPolicy policy = of(bench, NetworkPolicy.class).stream().filter(p -> name(p).equals(BENCHED)).findFirst()
        .orElseThrow();
    assertThat(policy.getSpec().getIngress()).as("NetworkPolicy %s admits the bench Job on the admin port", BENCHED)
        .anySatisfy(rule -> {
          assertThat(rule.getPorts()).extracting(p -> p.getPort().getStrVal()).containsExactly("admin");
          assertThat(rule.getFrom()).anySatisfy(from -> {
            assertThat(from.getPodSelector()).isNotNull();
            assertThat(jobLabels).containsAllEntriesOf(from.getPodSelector().getMatchLabels());
          });
        });
    // Never on a server's node: the client would take the server's CPUs.
    var avoid = jobPod.getAffinity().getPodAntiAffinity().getRequiredDuringSchedulingIgnoredDuringExecution();
    assertThat(avoid).as("the bench Job's required anti-affinity").anySatisfy(term -> {
      assertThat(term.getTopologyKey()).isEqualTo("kubernetes.io/hostname");
      assertThat(serverLabels).containsAllEntriesOf(term.getLabelSelector().getMatchLabels());
    });
    assertThat(of(bench, Deployment.class)).allSatisfy(d -> {
      assertThat(d.getSpec().getReplicas()).isEqualTo(1);
      assertThat(d.getSpec().getTemplate().getSpec().getAffinity()).as("%s: one pod, nothing to spread", name(d)).isNull();
      assertThat(d.getSpec().getTemplate().getSpec().getTopologySpreadConstraints()).isNullOrEmpty();
    });
  }

  @Test
  void prodScrapesTheAdminPortOfEachServiceThroughTheServiceMonitorComponent() throws Exception {
    checkServiceMonitor(ROOT);
  }

  /** The prod overlay of the repository at {@code root}: the ServiceMonitor component scrapes every service. */
  static void checkServiceMonitor(Path root) throws Exception {
    List<HasMetadata> objects = render(root.resolve("k8s/overlays/prod"));
    List<GenericKubernetesResource> monitors = objects.stream()
        .filter(o -> o.getKind().equals("ServiceMonitor")).map(o -> (GenericKubernetesResource) o)
        .collect(Collectors.toList());
    // Prometheus picks the Services by their own labels; every service's Service has one monitor.
    List<Service> services = of(objects, Service.class);
    assertThat(services).extracting(ManifestSchemaTest::name).containsExactlyInAnyOrderElementsOf(services(root));
    for (Service svc : services) {
      List<GenericKubernetesResource> scraping = monitors.stream().filter(m -> svc.getMetadata().getLabels().entrySet()
          .containsAll(m.<Map<String, String>>get("spec", "selector", "matchLabels").entrySet()))
          .collect(Collectors.toList());
      assertThat(scraping).as("ServiceMonitors selecting Service %s", name(svc)).hasSize(1);
      GenericKubernetesResource m = scraping.get(0);
      assertThat(m.getApiVersion()).isEqualTo("monitoring.coreos.com/v1");
      assertThat(m.getMetadata().getNamespace()).isEqualTo("portshare");
      // The model has no ServiceMonitor: its fields are held to the ones the operator's API defines.
      assertThat(m.getAdditionalProperties().keySet()).as("ServiceMonitor fields").containsOnly("spec");
      assertThat(m.<Map<String, Object>>get("spec").keySet()).as("ServiceMonitor spec fields")
          .isSubsetOf("selector", "endpoints", "namespaceSelector", "jobLabel", "targetLabels", "podTargetLabels");
      List<Map<String, Object>> endpoints = m.get("spec", "endpoints");
      assertThat(endpoints).isNotEmpty().allSatisfy(e -> {
        assertThat(e.keySet()).as("ServiceMonitor endpoint fields").isSubsetOf("port", "path", "interval",
            "scrapeTimeout", "scheme", "honorLabels", "relabelings", "metricRelabelings");
        assertThat(svc.getSpec().getPorts()).extracting(ServicePort::getName).contains((String) e.get("port"));
        assertThat(e.get("path")).isEqualTo("/metrics");
      });
    }
  }

  static void checkDeployRules(List<HasMetadata> objects, boolean autoscaled) {
    for (Deployment d : of(objects, Deployment.class)) {
      String what = "Deployment " + name(d);
      var spec = d.getSpec();
      var pod = spec.getTemplate().getSpec();
      Map<String, String> podLabels = spec.getTemplate().getMetadata().getLabels();
      assertThat(podLabels).as(what + " selector matches its pods")
          .containsAllEntriesOf(spec.getSelector().getMatchLabels());
      assertThat(spec.getStrategy().getRollingUpdate().getMaxUnavailable()).isEqualTo(new IntOrString(0));
      assertThat(pod.getSecurityContext().getRunAsNonRoot()).as(what + " runAsNonRoot").isTrue();
      assertThat(pod.getSecurityContext().getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
      assertThat(pod.getContainers()).hasSize(1);
      Container c = pod.getContainers().get(0);
      assertThat(c.getSecurityContext().getReadOnlyRootFilesystem()).as(what + " read-only root").isTrue();
      assertThat(c.getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
      assertThat(c.getSecurityContext().getCapabilities().getDrop()).containsExactly("ALL");
      String tmpVolume = c.getVolumeMounts().stream().filter(m -> m.getMountPath().equals("/tmp"))
          .findFirst().orElseThrow(() -> new AssertionError(what + " mounts no /tmp")).getName();
      assertThat(pod.getVolumes()).anySatisfy(v -> {
        assertThat(v.getName()).isEqualTo(tmpVolume);
        assertThat(v.getEmptyDir()).isNotNull();
      });

      // Guaranteed QoS with whole CPUs, and one event loop per CPU of the limit.
      Map<String, Quantity> requests = c.getResources().getRequests();
      Map<String, Quantity> limits = c.getResources().getLimits();
      assertThat(requests).as(what + " requests == limits").isEqualTo(limits);
      assertThat(limits).containsKeys("cpu", "memory");
      assertThat(limits.get("cpu").getNumericalAmount().stripTrailingZeros().scale()).as(what + " whole CPUs")
          .isLessThanOrEqualTo(0);
      EnvVar instances = c.getEnv().stream().filter(e -> e.getName().equals("PORTSHARE_INSTANCES"))
          .findFirst().orElseThrow(() -> new AssertionError(what + " sets no PORTSHARE_INSTANCES"));
      var field = instances.getValueFrom().getResourceFieldRef();
      assertThat(field.getResource()).isEqualTo("limits.cpu");
      assertThat(field.getContainerName()).isEqualTo(c.getName());

      // Probes and scraping on the admin port; the drain fits in the grace period.
      ContainerPort admin = c.getPorts().stream().filter(p -> p.getName().equals("admin")).findFirst()
          .orElseThrow(() -> new AssertionError(what + " has no admin port"));
      // By number: podman kube play (deploy/k8s.sh local) mistranslates named probe ports.
      IntOrString adminPort = new IntOrString(admin.getContainerPort());
      assertThat(c.getStartupProbe().getHttpGet().getPort()).isEqualTo(adminPort);
      assertThat(c.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/health/ready");
      assertThat(c.getReadinessProbe().getHttpGet().getPort()).isEqualTo(adminPort);
      assertThat(c.getLivenessProbe().getHttpGet().getPath()).isEqualTo("/health/live");
      assertThat(c.getLivenessProbe().getHttpGet().getPort()).isEqualTo(adminPort);
      Map<String, String> annotations = spec.getTemplate().getMetadata().getAnnotations();
      assertThat(annotations).containsEntry("prometheus.io/scrape", "true")
          .containsEntry("prometheus.io/port", Integer.toString(admin.getContainerPort()))
          .containsEntry("prometheus.io/path", "/metrics");
      long preStop = c.getLifecycle().getPreStop().getSleep().getSeconds();
      assertThat(preStop).isPositive().isLessThan(pod.getTerminationGracePeriodSeconds());

      // Every ConfigMap the pod mounts is one of the rendered objects (generated names carry a hash).
      pod.getVolumes().stream().filter(v -> v.getConfigMap() != null).forEach(v ->
          assertThat(objects).as(what + " mounts ConfigMap " + v.getConfigMap().getName())
              .anySatisfy(o -> {
                assertThat(o.getKind()).isEqualTo("ConfigMap");
                assertThat(name(o)).isEqualTo(v.getConfigMap().getName());
              }));

      List<Service> services = of(objects, Service.class).stream()
          .filter(s -> podLabels.entrySet().containsAll(s.getSpec().getSelector().entrySet()))
          .collect(Collectors.toList());
      // One Service with a virtual IP; the bench overlay adds a headless one to reach the pods directly.
      assertThat(services).as(what + " has a Service").filteredOn(s -> !headless(s)).hasSize(1);
      for (Service service : services) {
        for (ServicePort sp : service.getSpec().getPorts()) {
          IntOrString target = sp.getTargetPort();
          assertThat(c.getPorts()).as(what + " has Service " + name(service) + "'s targetPort " + target).anySatisfy(p -> {
            if (target.getStrVal() != null) {
              assertThat(p.getName()).isEqualTo(target.getStrVal());
            } else {
              assertThat(p.getContainerPort()).isEqualTo(target.getIntVal());
            }
          });
        }
      }
      // k8s/README.md: each service has its PodDisruptionBudget, in every overlay.
      List<PodDisruptionBudget> budgets = of(objects, PodDisruptionBudget.class).stream()
          .filter(p -> podLabels.entrySet().containsAll(p.getSpec().getSelector().getMatchLabels().entrySet()))
          .collect(Collectors.toList());
      assertThat(budgets).as(what + " has one PodDisruptionBudget selecting its pods").hasSize(1);
      assertThat(name(budgets.get(0))).isEqualTo(name(d));
      NetworkPolicy policy = of(objects, NetworkPolicy.class).stream()
          .filter(p -> podLabels.entrySet().containsAll(p.getSpec().getPodSelector().getMatchLabels().entrySet()))
          .findFirst().orElseThrow(() -> new AssertionError(what + " has no NetworkPolicy"));
      // The traffic port is open to all (a rule with no "from"); the admin port is not.
      policy.getSpec().getIngress().forEach(rule -> rule.getPorts().forEach(p -> {
        boolean open = rule.getFrom() == null || rule.getFrom().isEmpty();
        assertThat(p.getPort().getStrVal().equals("admin")).as(what + " admin port open to all").isNotEqualTo(open);
      }));
    }
    // k8s/README.md: each service scales on CPU with its HorizontalPodAutoscaler, except in the dev
    // and bench overlays ("no autoscaling", fixed size so runs compare).
    List<HorizontalPodAutoscaler> hpas = of(objects, HorizontalPodAutoscaler.class);
    for (HorizontalPodAutoscaler hpa : hpas) {
      assertThat(hpa.getSpec().getScaleTargetRef().getKind()).isEqualTo("Deployment");
      assertThat(hpa.getSpec().getMetrics().get(0).getResource().getName()).isEqualTo("cpu");
    }
    assertThat(hpas).extracting(h -> h.getSpec().getScaleTargetRef().getName())
        .as("Deployments scaled by a HorizontalPodAutoscaler")
        .containsExactlyInAnyOrderElementsOf(autoscaled ? of(objects, Deployment.class).stream().map(ManifestSchemaTest::name)
            .collect(Collectors.toList()) : List.of());
  }

  /** Renders a kustomization with kubectl (as {@code deploy/k8s.sh} and a user would) and parses it. */
  static List<HasMetadata> render(Path dir) throws IOException, InterruptedException {
    Jars.requireKubectl();
    Process p = new ProcessBuilder("kubectl", "kustomize", dir.toString()).redirectErrorStream(false).start();
    byte[] out = p.getInputStream().readAllBytes();
    String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as("kubectl kustomize %s: %s", dir, err).isZero();
    List<HasMetadata> objects = new ArrayList<>();
    for (String doc : new String(out, StandardCharsets.UTF_8).split("(?m)^---$")) {
      if (!doc.isBlank()) {
        objects.add(SERIALIZATION.unmarshal(doc, HasMetadata.class));
      }
    }
    return objects;
  }

  /**
   * The model keeps fields it does not know in additionalProperties instead of failing; a
   * misspelt or misplaced field lands there, so every one of those maps must be empty.
   */
  static void assertNoUnknownFields(Object o, String path) {
    if (o == null || o instanceof String || o instanceof Number || o instanceof Boolean || o instanceof Enum) {
      return;
    }
    if (o instanceof List) {
      List<?> list = (List<?>) o;
      for (int i = 0; i < list.size(); i++) {
        assertNoUnknownFields(list.get(i), path + "[" + i + "]");
      }
      return;
    }
    if (o instanceof Map) {
      ((Map<?, ?>) o).forEach((k, v) -> assertNoUnknownFields(v, path + "." + k));
      return;
    }
    if (!o.getClass().getName().startsWith("io.fabric8.")) {
      return;
    }
    for (Method m : o.getClass().getMethods()) {
      if (m.getParameterCount() != 0 || Modifier.isStatic(m.getModifiers()) || !m.getName().startsWith("get")
          || m.getDeclaringClass() == Object.class || m.getName().equals("getClass")) {
        continue;
      }
      Object value;
      try {
        value = m.invoke(o);
      } catch (ReflectiveOperationException e) {
        throw new AssertionError("cannot read " + path + "." + m.getName() + "()", e);
      }
      if (m.getName().equals("getAdditionalProperties")) {
        assertThat((Map<?, ?>) value).as("fields unknown to the model at %s", path).isNullOrEmpty();
      } else if (!(o instanceof Quantity) && !(o instanceof IntOrString)) {
        assertNoUnknownFields(value, path + "." + decapitalize(m.getName().substring(3)));
      }
    }
  }

  private static String decapitalize(String s) {
    return s.isEmpty() ? s : Character.toLowerCase(s.charAt(0)) + s.substring(1);
  }

  static boolean headless(Service s) {
    return "None".equals(s.getSpec().getClusterIP());
  }

  static <T> List<T> of(List<HasMetadata> objects, Class<T> type) {
    return objects.stream().filter(type::isInstance).map(type::cast).collect(Collectors.toList());
  }

  static String name(HasMetadata o) {
    return o.getMetadata().getName();
  }

}
