package io.portshare.statics;

import static org.assertj.core.api.Assertions.assertThat;

import io.portshare.kit.HttpWire;
import io.portshare.runtime.impl.ServiceRuntime;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;

/**
 * Every {@link MaxConnectionAgeTest} again with {@code --engine vertx}, and its one difference
 * (static-server/README.md, Engines): the age is the runtime's connection policy for Vert.x's
 * servers, which shuts an old connection down gracefully at its age: an idle one is closed then,
 * not answered once more with {@code Connection: close} as on the own engine.
 */
class MaxConnectionAgeOnVertxTest extends MaxConnectionAgeTest {

  @Override
  String engine() {
    return "vertx";
  }

  @Override
  @Test
  void theFirstAnswerAfterTheAgeSaysCloseAndTheServerCloses() throws Exception {
    differenceAnIdleOldConnectionIsClosedAtItsAge();
  }

  @Test
  void differenceAnIdleOldConnectionIsClosedAtItsAge() throws Exception {
    Files.writeString(root.resolve("a.txt"), "hello");
    ServiceRuntime shortLived = runtimes.start(new StaticService(),
        TestServers.flags(root, "--engine", engine(), "--max-connection-age", "300ms"));
    try (HttpWire c = new HttpWire(shortLived.port())) {
      HttpWire.Response young = c.send("GET /a.txt HTTP/1.1\r\nHost: t\r\n\r\n").read(false);
      assertThat(young.text()).isEqualTo("hello");
      assertThat(young.header("connection")).isNull();
      assertThat(c.closedByServer(30_000)).as("closed, idle, at its age").isTrue();
    }
  }
}
