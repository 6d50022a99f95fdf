package io.portshare.layers;

import static org.assertj.core.api.Assertions.assertThat;

import io.portshare.kit.Repository;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The runtime's layers, checked on the sources: a service reaches the runtime through the
 * extension point alone, and no import runs back up from a lower layer of the runtime to a higher
 * one. Top down: the extension point and the runtime that runs it ({@code io.portshare.runtime})
 * and the launcher ({@code .launch}); then {@code .admin}, {@code .warmup} and the listener layer
 * ({@code .net}); under it the lean channels ({@code .net.lean}), which know nothing of the
 * runtime; {@code .config} at the bottom, beside them.
 */
class RuntimeLayersTest {

  private static final Path ROOT = Repository.root();
  private static final Path RUNTIME = ROOT.resolve("services/runtime/src/main/java/io/portshare/runtime");
  private static final Pattern IMPORT = Pattern.compile("^import (?:static )?(io\\.portshare\\.runtime(?:\\.\\w+)*)\\.(\\w+);",
      Pattern.MULTILINE);

  /** What a service may name of the runtime: the extension point, its options and its warm-up. */
  static final Set<String> EXTENSION_POINT = Set.of(
      "io.portshare.runtime.ServiceDescriptor", "io.portshare.runtime.ServiceVerticle",
      "io.portshare.runtime.ServiceContext", "io.portshare.runtime.ConnectionInitializer",
      "io.portshare.runtime.DrainEvent", "io.portshare.runtime.LingeringClose", "io.portshare.runtime.Outbound",
      "io.portshare.runtime.LatencyHistogram", "io.portshare.runtime.AnswerTimer",
      "io.portshare.runtime.NettyAccess", "io.portshare.runtime.config.Option", "io.portshare.runtime.config.Settings",
      "io.portshare.runtime.config.UsageException", "io.portshare.runtime.warmup.WarmUpExchange");

  @Test
  void aServiceNamesOnlyTheExtensionPointOfTheRuntime() throws IOException {
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
          if (!EXTENSION_POINT.contains(imported)) {
            outside.add(ROOT.relativize(file) + ": " + imported);
          }
        }
      }
    }
    assertThat(outside).as("runtime classes a service names beyond the extension point").isEmpty();
  }

  @Test
  void noImportRunsBackUpFromALowerLayerOfTheRuntime() throws IOException {
    List<String> upward = new ArrayList<>();
    upward.addAll(importsOf("net", "io.portshare.runtime", "io.portshare.runtime.launch",
        "io.portshare.runtime.admin", "io.portshare.runtime.warmup"));
    upward.addAll(importsOf("net/lean", "io.portshare.runtime", "io.portshare.runtime.launch",
        "io.portshare.runtime.admin", "io.portshare.runtime.warmup", "io.portshare.runtime.net",
        "io.portshare.runtime.config"));
    upward.addAll(importsOf("config", "io.portshare.runtime", "io.portshare.runtime.launch",
        "io.portshare.runtime.admin", "io.portshare.runtime.warmup", "io.portshare.runtime.net",
        "io.portshare.runtime.net.lean"));
    upward.addAll(importsOf("warmup", "io.portshare.runtime", "io.portshare.runtime.launch",
        "io.portshare.runtime.admin", "io.portshare.runtime.net"));
    upward.addAll(importsOf("admin", "io.portshare.runtime", "io.portshare.runtime.launch",
        "io.portshare.runtime.warmup", "io.portshare.runtime.net"));
    assertThat(upward).as("imports from a layer above").isEmpty();
  }

  @Test
  void theCheckFindsAnImportWhereThereIsOne() throws IOException {
    // The launcher sits on top and names the runtime: the pattern must see that, or the checks above see nothing.
    assertThat(importsOf("launch", "io.portshare.runtime")).as("what the pattern finds in .launch").isNotEmpty();
  }

  /** The imports of {@code layer}'s own files (not its sub-packages') from any of the {@code forbidden} packages. */
  private static List<String> importsOf(String layer, String... forbidden) throws IOException {
    Set<String> packages = Set.of(forbidden);
    List<String> found = new ArrayList<>();
    try (Stream<Path> files = Files.list(RUNTIME.resolve(layer))) {
      for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
        for (String imported : imports(file)) {
          String pkg = imported.substring(0, imported.lastIndexOf('.'));
          if (packages.contains(pkg)) {
            found.add(ROOT.relativize(file) + ": " + imported);
          }
        }
      }
    }
    return found;
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
