package io.portshare.statics;

import static org.assertj.core.api.Assertions.assertThat;

import io.portshare.kit.HttpWire;
import io.portshare.runtime.impl.ServiceRuntime;
import java.nio.file.Files;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@link StaticDrainTest} with {@code --engine vertx}, and its one difference (static-server/README.md,
 * Engines): Vert.x's server shutdown closes a connection whose request head has only partly arrived,
 * where the own engine reads the rest of the head and answers it with {@code Connection: close}.
 */
class StaticDrainOnVertxTest extends StaticDrainTest {

  @Override
  String engine() {
    return "vertx";
  }

  @Override
  @Test
  void anIdleConnectionClosesAtOnceAndAHeadArrivingIsAnsweredWithClose() throws Exception {
    Files.writeString(root.resolve("hello.txt"), "hello\n");
    ServiceRuntime rt = runtimes.start(new StaticService(), TestServers.flags(root, "--engine", engine()));
    try (HttpWire idle = new HttpWire(rt.port()); HttpWire arriving = new HttpWire(rt.port())) {
      assertThat(idle.send("GET /hello.txt HTTP/1.1\r\nHost: t\r\n\r\n").read(false).text()).isEqualTo("hello\n");
      arriving.send("GET /hello.txt HTTP/1.1\r\nHo");
      Thread.sleep(200); // the head's first bytes in before the drain

      CompletableFuture<Void> stopped = CompletableFuture.runAsync(() -> rt.stop(Duration.ofMinutes(5)));

      assertThat(idle.closedByServer(10_000)).as("the idle connection").isTrue();
      // The difference: the half-arrived head is not waited for; the connection closes unanswered.
      assertThat(arriving.closedByServer(10_000)).as("the connection with half a head").isTrue();
      stopped.get(30, TimeUnit.SECONDS);
    }
  }
}
