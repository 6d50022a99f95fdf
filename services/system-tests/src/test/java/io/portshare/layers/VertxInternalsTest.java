package io.portshare.layers;

import static org.assertj.core.api.Assertions.assertThat;

import io.portshare.kit.Repository;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Only the runtime reaches into Vert.x's internal classes ({@code io.vertx.*.impl.*},
 * {@code io.vertx.*.internal.*}); a service, the bench, the kit and every test outside the runtime
 * go through the runtime's {@code NettyAccess} or Vert.x's public API, so that a Vert.x upgrade
 * that moves its internals changes the runtime only.
 */
class VertxInternalsTest {

  private static final Path ROOT = Repository.root();
  private static final Path RUNTIME = ROOT.resolve("services/runtime");
  private static final Pattern INTERNAL = Pattern.compile("io\\.vertx(?:\\.\\w+)*?\\.(?:impl|internal)(?:\\.\\w+)+");

  @Test
  void onlyTheRuntimeNamesVertxInternals() throws IOException {
    List<String> uses = new ArrayList<>();
    Files.walkFileTree(ROOT, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
        String name = dir.getFileName().toString();
        // Build output and hidden directories (.git, .mvn) hold no source of ours.
        boolean skip = dir.equals(RUNTIME) || name.equals("target") || (name.startsWith(".") && !dir.equals(ROOT));
        return skip ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
        if (file.toString().endsWith(".java")) {
          uses.addAll(uses(file));
        }
        return FileVisitResult.CONTINUE;
      }
    });
    assertThat(uses).as("Vert.x internals named outside services/runtime").isEmpty();
  }

  @Test
  void theRuntimeDoesNameThemSoThePatternMatches() throws IOException {
    assertThat(uses(RUNTIME.resolve("src/main/java/io/portshare/runtime/NettyAccess.java")))
        .as("what the pattern finds in NettyAccess").isNotEmpty();
  }

  private static List<String> uses(Path file) {
    try {
      List<String> lines = Files.readAllLines(file);
      List<String> found = new ArrayList<>();
      for (int i = 0; i < lines.size(); i++) {
        Matcher m = INTERNAL.matcher(lines.get(i));
        while (m.find()) {
          found.add(ROOT.relativize(file) + ":" + (i + 1) + ": " + m.group());
        }
      }
      return found;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
