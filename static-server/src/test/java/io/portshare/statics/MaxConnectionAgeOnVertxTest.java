package io.portshare.statics;

import static org.assertj.core.api.Assertions.assertThat;

import io.portshare.kit.HttpWire;
import io.portshare.runtime.impl.ServiceRuntime;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;

/**
 * Every {@link MaxConnectionAgeTest} again with {@code --engine vertx}, and its one difference
 * (static-server/README.md, Engines): an old HTTP/1.0 keep-alive connection is closed after its
 * answer as on the own engine, but the answer says {@code connection: keep-alive}, which Vert.x writes
 * over the service's {@code connection: close} for an HTTP/1.0 request that asked to be kept alive.
 */
class MaxConnectionAgeOnVertxTest extends MaxConnectionAgeTest {

  @Override
  String engine() {
    return "vertx";
  }

  @Test
  void differenceAnOldHttp10KeepAliveConnectionClosesWithAnAnswerThatSaysKeepAlive() throws Exception {
    Files.writeString(root.resolve("a.txt"), "hello");
    ServiceRuntime shortLived = runtimes.start(new StaticService(),
        TestServers.flags(root, "--engine", engine(), "--max-connection-age", "300ms"));
    try (HttpWire c = new HttpWire(shortLived.port())) {
      Thread.sleep(400); // past 300 ms + 10% from the accept, which came before this connect returned
      HttpWire.Response old = c.send("GET /a.txt HTTP/1.0\r\nConnection: keep-alive\r\n\r\n").read(false);
      assertThat(old.text()).isEqualTo("hello");
      assertThat(old.header("connection")).isEqualTo("keep-alive");
      assertThat(c.closedByServer(30_000)).as("closed after the answer").isTrue();
    }
  }
}
