package io.portshare.statics;

import static org.assertj.core.api.Assertions.assertThat;

import io.portshare.kit.HttpWire;
import io.portshare.runtime.Runtimes;
import io.portshare.runtime.impl.ServiceRuntime;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The drain over real sockets: an idle keep-alive connection closes at once, a request arriving is answered with close. */
class StaticDrainTest {

  /** Longer than the test may take: a stop that ends has not waited for it. */
  private static final Duration LONG_DRAIN = Duration.ofMinutes(5);

  @TempDir
  Path root;
  @RegisterExtension
  final Runtimes runtimes = new Runtimes();

  /** The engine under test; a subclass runs every test on the other. */
  String engine() {
    return "own";
  }

  @Test
  void anIdleConnectionClosesAtOnceAndAHeadArrivingIsAnsweredWithClose() throws Exception {
    Files.writeString(root.resolve("hello.txt"), "hello\n");
    ServiceRuntime rt = runtimes.start(new StaticService(), TestServers.flags(root, "--engine", engine()));
    try (HttpWire idle = new HttpWire(rt.port()); HttpWire arriving = new HttpWire(rt.port())) {
      assertThat(idle.send("GET /hello.txt HTTP/1.1\r\nHost: t\r\n\r\n").read(false).text()).isEqualTo("hello\n");
      arriving.send("GET /hello.txt HTTP/1.1\r\nHo");
      Thread.sleep(200); // the head's first bytes in before the drain

      CompletableFuture<Void> stopped = CompletableFuture.runAsync(() -> rt.stop(LONG_DRAIN));

      assertThat(idle.closedByServer(10_000)).as("the idle connection").isTrue();
      assertThat(stopped).as("the stop, while a request arrives").isNotDone();
      HttpWire.Response last = arriving.send("st: t\r\n\r\n").read(false);
      assertThat(last.text()).isEqualTo("hello\n");
      assertThat(last.header("connection")).isEqualTo("close");
      assertThat(arriving.closedByServer(10_000)).as("closed after its answer").isTrue();
      stopped.get(30, TimeUnit.SECONDS);
    }
  }
}
