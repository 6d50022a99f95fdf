package io.portshare.rpc.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The client names nothing of Vert.x's internals (impl, internal, the Netty layer under it) and
 * nothing of the server or the runtime (the codec, the protocol's own artifact, aside), in an import
 * or written out in full: what a user depends on must keep working across Vert.x versions that move
 * those.
 */
class PublicApiOnlyTest {

  private static final Pattern FORBIDDEN = Pattern.compile(
      "\\b(io\\.vertx\\.core\\.impl|io\\.vertx\\.core\\.internal|io\\.vertx\\.core\\.net\\.impl|io\\.netty"
          + "|io\\.portshare\\.(?!rpc\\.(client|codec)\\b)[a-z.]+)\\b[\\w.]*");

  @Test
  void sourcesNameOnlyPublicVertxApi() throws IOException {
    Path sources = Path.of("src/main/java");
    List<Path> files;
    try (Stream<Path> walk = Files.walk(sources)) {
      files = walk.filter(p -> p.toString().endsWith(".java")).toList();
    }
    assertThat(files).as("the client's sources, from the module's folder").hasSizeGreaterThanOrEqualTo(5);
    for (Path file : files) {
      Matcher m = FORBIDDEN.matcher(Files.readString(file));
      assertThat(m.find() ? m.group() : null).as(file.toString()).isNull();
    }
  }
}
