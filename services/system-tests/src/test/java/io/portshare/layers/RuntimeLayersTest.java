package io.portshare.layers;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import io.portshare.kit.Repository;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The runtime's layers. A service reaches the runtime through its API alone: the package
 * {@code io.portshare.runtime}, which names nothing of the runtime behind it (as Vert.x core's API
 * names nothing of its {@code impl}). Behind it, top down: the launcher ({@code .launch}); the
 * runtime that runs a service ({@code .impl}); health and metrics ({@code .admin}), the warm-up
 * ({@code .warmup}) and the listener layer ({@code .net}); the lean channels ({@code .net.lean});
 * options ({@code .config}). No class depends on a layer above its own: checked by ArchUnit on the
 * compiled classes, which sees every reference (a fully qualified name too, not only an import),
 * and shown to fail on a class planted in the API that names the runtime.
 */
class RuntimeLayersTest {

  private static final Path ROOT = Repository.root();
  private static final Pattern IMPORT = Pattern.compile("^import (?:static )?(io\\.portshare\\.runtime(?:\\.\\w+)*)\\.(\\w+);",
      Pattern.MULTILINE);
  private static final String API = "io.portshare.runtime";

  /** The runtime's main classes, as shipped (its jar or classes directory on this test's class path). */
  private static final JavaClasses RUNTIME = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
      .withImportOption(location -> !location.contains("/test-classes/") && !location.contains("-tests.jar"))
      .importPackages(API);

  /** The API names nothing of the runtime behind it. */
  static final ArchRule API_NAMES_NO_IMPLEMENTATION = noClasses().that().resideInAPackage(API)
      .should().dependOnClassesThat().resideInAPackage(API + ".(*)..")
      .as("the API package names nothing of the runtime behind it");

  /** No arrow runs back up from a lower layer to a higher one. */
  static final ArchRule LAYERS = layeredArchitecture().consideringOnlyDependenciesInLayers()
      .layer("api").definedBy(API)
      .layer("launcher").definedBy(API + ".launch..")
      .layer("runtime").definedBy(API + ".impl..")
      .layer("admin").definedBy(API + ".admin..")
      .layer("warm-up").definedBy(API + ".warmup..")
      .layer("listeners").definedBy(API + ".net")
      .layer("lean channels").definedBy(API + ".net.lean..")
      .layer("config").definedBy(API + ".config..")
      .whereLayer("launcher").mayNotBeAccessedByAnyLayer()
      .whereLayer("runtime").mayOnlyBeAccessedByLayers("launcher")
      .whereLayer("admin").mayOnlyBeAccessedByLayers("launcher", "runtime")
      .whereLayer("warm-up").mayOnlyBeAccessedByLayers("launcher", "runtime")
      .whereLayer("listeners").mayOnlyBeAccessedByLayers("launcher", "runtime")
      .whereLayer("lean channels").mayOnlyBeAccessedByLayers("launcher", "runtime", "listeners")
      .whereLayer("config").mayOnlyBeAccessedByLayers("launcher", "runtime", "listeners", "admin", "warm-up")
      .as("no arrow runs back up in the runtime");

  @Test
  void theApiNamesNothingOfTheRuntimeBehindIt() {
    assertThat(RUNTIME.contain("io.portshare.runtime.impl.ServiceRuntime")).as("the runtime's classes imported").isTrue();
    API_NAMES_NO_IMPLEMENTATION.check(RUNTIME);
  }

  @Test
  void noArrowRunsBackUpFromALowerLayer() {
    LAYERS.check(RUNTIME);
  }

  @Test
  void theRulesFailOnAnUpwardImportPlantedInTheApi() {
    JavaClasses planted = new ClassFileImporter().importPackages(API);
    assertThat(planted.contain("io.portshare.runtime.PlantedUpwardImport")).isTrue();
    EvaluationResult api = API_NAMES_NO_IMPLEMENTATION.evaluate(planted);
    assertThat(api.hasViolation()).isTrue();
    assertThat(api.getFailureReport().getDetails()).anyMatch(d -> d.contains("PlantedUpwardImport"));
    EvaluationResult layers = LAYERS.evaluate(planted);
    assertThat(layers.getFailureReport().getDetails()).anyMatch(d -> d.contains("PlantedUpwardImport"));
  }

  @Test
  void aServiceNamesOnlyTheApiOfTheRuntime() throws IOException {
    List<String> outside = new ArrayList<>();
    List<Path> services;
    try (Stream<Path> dirs = Files.list(ROOT)) {
      services = dirs.filter(d -> d.getFileName().toString().endsWith("-server"))
          .map(d -> d.resolve("src/main/java")).filter(Files::isDirectory).toList();
    }
    assertThat(services).as("service modules found").hasSizeGreaterThanOrEqualTo(2);
    for (Path src : services) {
      for (Path file : javaFiles(src)) {
        for (String imported : imports(file)) {
          if (!imported.substring(0, imported.lastIndexOf('.')).equals(API)) {
            outside.add(ROOT.relativize(file) + ": " + imported);
          }
        }
      }
    }
    assertThat(outside).as("runtime classes a service names beyond its API").isEmpty();
  }

  private static List<String> imports(Path file) {
    try {
      Matcher m = IMPORT.matcher(Files.readString(file));
      List<String> found = new ArrayList<>();
      while (m.find()) {
        found.add(m.group(1) + "." + m.group(2));
      }
      return found;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static List<Path> javaFiles(Path dir) throws IOException {
    try (Stream<Path> all = Files.walk(dir)) {
      return all.filter(f -> f.toString().endsWith(".java")).toList();
    }
  }
}
