package io.portshare.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.portshare.kit.Repository;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * deploy/k8s.sh deploys exactly the images of a build: every overlay it renders names each
 * portshare image at the build's tag, VERSION-COMMIT[-dirty] (deploy/image-tag.sh), and labels every
 * object and pod with it (app.kubernetes.io/version). A tag that names no commit (0.1.0-SNAPSHOT,
 * latest, none) is refused, as a node with imagePullPolicy IfNotPresent would run whatever older
 * image it holds under that tag.
 */
class ManifestTagTest {

  /** VERSION-COMMIT[-dirty], as deploy/image-tag.sh prints it and deploy/k8s.sh accepts it. */
  static final String TAG = "[0-9A-Za-z._-]+-[0-9a-f]{7,40}(-dirty)?";
  private static final Path ROOT = Repository.root();
  private static final String VERSION_LABEL = "app.kubernetes.io/version";
  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  static Stream<String> overlays() throws Exception {
    return ManifestSchemaTest.overlays(ROOT).stream().map(o -> o.substring(o.lastIndexOf('/') + 1));
  }

  @ParameterizedTest
  @MethodSource("overlays")
  void everyOverlayDeploysTheImagesAtTheCheckoutsTag(String overlay) throws Exception {
    String tag = ImageTagTest.run(ROOT, 0, "bash", "deploy/image-tag.sh");
    assertThat(tag).startsWith(ImageTagTest.pomVersion(ROOT) + "-");
    checkTagged(render(ROOT, overlay, null), tag);
  }

  @Test
  void aReleaseTagGivenByTheOperatorIsDeployedAsGiven() throws Exception {
    checkTagged(render(ROOT, "prod", "0.1.0-1a2b3c4"), "0.1.0-1a2b3c4");
  }

  static Stream<Arguments> tagsThatNameNoCommit() {
    return Stream.of("0.1.0-SNAPSHOT", "latest", "0.1.0", "0.1.0-SNAPSHOT-dirty", "0.1.0-1a2b3c", "0.1.0-1A2B3C4")
        .map(Arguments::of);
  }

  @ParameterizedTest
  @MethodSource("tagsThatNameNoCommit")
  void deployRefusesATagThatNamesNoCommit(String tag) throws Exception {
    Jars.requireKubectl();
    String out = ImageTagTest.run(ROOT, 2, "env", "IMAGE_TAG=" + tag, "bash", "deploy/k8s.sh", "render", "dev");
    assertThat(out).isEqualTo("k8s.sh: IMAGE_TAG=" + tag + ": an image tag is VERSION-COMMIT[-dirty] as "
        + "deploy/image-tag.sh prints it (e.g. 0.1.0-1a2b3c4)");
  }

  /** A render of the bench overlay (a Deployment and a Job) at a good tag, spoilt in one way each. */
  static Stream<Arguments> spoilt() {
    return Stream.<Arguments>of(
        Arguments.of("the server at 0.1.0-SNAPSHOT", (Consumer<List<HasMetadata>>) o ->
            container(deployment(o)).setImage("portshare-rpc-server:0.1.0-SNAPSHOT")),
        Arguments.of("the server untagged", (Consumer<List<HasMetadata>>) o ->
            container(deployment(o)).setImage("portshare-rpc-server")),
        Arguments.of("the Job's image at latest", (Consumer<List<HasMetadata>>) o ->
            container(job(o).getSpec().getTemplate()).setImage("portshare-bench:latest")),
        Arguments.of("the server at another commit", (Consumer<List<HasMetadata>>) o ->
            container(deployment(o)).setImage("portshare-rpc-server:0.1.0-SNAPSHOT-0000000")),
        Arguments.of("the pod's version label SNAPSHOT", (Consumer<List<HasMetadata>>) o ->
            deployment(o).getSpec().getTemplate().getMetadata().getLabels().put(VERSION_LABEL, "0.1.0-SNAPSHOT")),
        Arguments.of("the Job's pod without a version label", (Consumer<List<HasMetadata>>) o ->
            job(o).getSpec().getTemplate().getMetadata().getLabels().remove(VERSION_LABEL)),
        Arguments.of("a Service's version label SNAPSHOT", (Consumer<List<HasMetadata>>) o ->
            o.stream().filter(x -> x.getKind().equals("Service")).findFirst().orElseThrow().getMetadata()
                .getLabels().put(VERSION_LABEL, "0.1.0-SNAPSHOT")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("spoilt")
  void aManifestWithAnotherTagFailsTheCheck(String what, Consumer<List<HasMetadata>> spoil) throws Exception {
    String tag = "0.1.0-SNAPSHOT-1a2b3c4";
    List<HasMetadata> objects = render(ROOT, "bench", tag);
    checkTagged(objects, tag);
    spoil.accept(objects);
    assertThatThrownBy(() -> checkTagged(objects, tag)).as(what).isInstanceOf(AssertionError.class);
  }

  /**
   * Every portshare image of the render (a Deployment's or a Job's) is at {@code tag}, which names a
   * commit; every object and every pod template carries it as app.kubernetes.io/version.
   */
  static void checkTagged(List<HasMetadata> objects, String tag) {
    assertThat(tag).as("the build's tag").matches(TAG);
    List<PodTemplateSpec> pods = new ArrayList<>();
    ManifestSchemaTest.of(objects, Deployment.class).forEach(d -> pods.add(d.getSpec().getTemplate()));
    ManifestSchemaTest.of(objects, Job.class).forEach(j -> pods.add(j.getSpec().getTemplate()));
    List<String> images = pods.stream().flatMap(p -> p.getSpec().getContainers().stream()).map(Container::getImage)
        .filter(i -> i.substring(i.lastIndexOf('/') + 1).startsWith("portshare-")).collect(Collectors.toList());
    assertThat(images).as("portshare images").isNotEmpty()
        .allSatisfy(i -> assertThat(i).as("image").endsWith(":" + tag));
    for (HasMetadata o : objects) {
      assertThat(labels(o.getMetadata().getLabels())).as("%s %s labels", o.getKind(), ManifestSchemaTest.name(o))
          .containsEntry(VERSION_LABEL, tag);
    }
    for (PodTemplateSpec p : pods) {
      assertThat(labels(p.getMetadata().getLabels())).as("pod template labels").containsEntry(VERSION_LABEL, tag);
    }
  }

  private static Map<String, String> labels(Map<String, String> labels) {
    return labels == null ? Map.of() : labels;
  }

  private static Deployment deployment(List<HasMetadata> objects) {
    return ManifestSchemaTest.of(objects, Deployment.class).get(0);
  }

  private static Job job(List<HasMetadata> objects) {
    return ManifestSchemaTest.of(objects, Job.class).get(0);
  }

  private static Container container(Deployment d) {
    return container(d.getSpec().getTemplate());
  }

  private static Container container(PodTemplateSpec p) {
    return p.getSpec().getContainers().get(0);
  }

  /** {@code deploy/k8s.sh render OVERLAY} of the repository at {@code root}, at IMAGE_TAG {@code tag} (null: the checkout's). */
  static List<HasMetadata> render(Path root, String overlay, String tag) throws Exception {
    Jars.requireKubectl();
    ProcessBuilder pb = new ProcessBuilder("bash", "deploy/k8s.sh", "render", overlay).directory(root.toFile());
    pb.environment().remove("IMAGE_TAG");
    if (tag != null) {
      pb.environment().put("IMAGE_TAG", tag);
    }
    Process p = pb.start();
    byte[] out = p.getInputStream().readAllBytes();
    String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as("deploy/k8s.sh render %s: %s", overlay, err).isZero();
    List<HasMetadata> objects = new ArrayList<>();
    for (String doc : new String(out, StandardCharsets.UTF_8).split("(?m)^---$")) {
      if (!doc.isBlank()) {
        objects.add(SERIALIZATION.unmarshal(doc, HasMetadata.class));
      }
    }
    return objects;
  }
}
