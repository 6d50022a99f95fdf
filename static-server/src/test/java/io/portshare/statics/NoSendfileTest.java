package io.portshare.statics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.portshare.kit.HttpWire;
import io.portshare.runtime.ServiceRuntime;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** --no-sendfile: the same answers through the copying path, counted as copied, leaving no file open. */
class NoSendfileTest {

  @TempDir
  static Path tmp;
  static ServiceRuntime rt;
  static int port;
  static byte[] big;

  @BeforeAll
  static void start() throws IOException {
    Path root = Files.createDirectories(tmp.resolve("root"));
    StaticServerTest.Site.populate(root, tmp.resolve("outside"));
    big = Files.readAllBytes(root.resolve("big.bin"));
    rt = TestServers.start(root, "--no-sendfile");
    port = rt.port();
  }

  @AfterAll
  static void stop() {
    TestServers.stop(rt);
  }

  @Test
  void wholeFilesAndRangesGoThroughTheCopyingPath() throws Exception {
    double sendfile = StaticServerTest.metricOf(rt, "portshare_static_body_bytes_total", "path", "sendfile");
    double copied = StaticServerTest.metricOf(rt, "portshare_static_body_bytes_total", "path", "copy");
    assertThat(HttpWire.get(port, "/big.bin").body()).isEqualTo(big);
    HttpWire.Response slice = HttpWire.get(port, "/big.bin", "Range: bytes=-1000\r\n");
    assertThat(slice.status()).isEqualTo(206);
    assertThat(slice.body()).isEqualTo(Arrays.copyOfRange(big, big.length - 1000, big.length));
    assertThat(StaticServerTest.metricOf(rt, "portshare_static_body_bytes_total", "path", "sendfile"))
        .isEqualTo(sendfile);
    assertThat(StaticServerTest.metricOf(rt, "portshare_static_body_bytes_total", "path", "copy") - copied)
        .isEqualTo(big.length + 1000);
  }

  @Test
  void everyOpenedFileIsClosedAgain() throws Exception {
    HttpWire.get(port, "/big.bin");
    long before = openFiles();
    for (int i = 0; i < 200; i++) {
      assertThat(HttpWire.get(port, "/big.bin", "Range: bytes=0-99\r\n").body()).hasSize(100);
    }
    // Closes finish asynchronously, on the blocking pool; a leak would leave ~200 behind.
    await().atMost(Duration.ofSeconds(30)).until(() -> openFiles() - before < 20);
  }

  private static long openFiles() throws IOException {
    try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
      return fds.count();
    }
  }
}
