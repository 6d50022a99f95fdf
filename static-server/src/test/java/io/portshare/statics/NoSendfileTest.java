package io.portshare.statics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.portshare.kit.HttpWire;
import io.portshare.runtime.Runtimes;
import io.portshare.runtime.ServiceRuntime;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** --no-sendfile: the same answers through the copying path, counted as copied, leaving no file open. */
class NoSendfileTest {

  @TempDir
  static Path tmp;
  @RegisterExtension
  static final Runtimes runtimes = new Runtimes();
  static ServiceRuntime rt;
  static int port;
  static byte[] big;
  static Path bigFile;

  @BeforeAll
  static void start() throws IOException {
    Path root = Files.createDirectories(tmp.resolve("root"));
    StaticServerTest.Site.populate(root, tmp.resolve("outside"));
    bigFile = root.resolve("big.bin");
    big = Files.readAllBytes(bigFile);
    rt = runtimes.start(new StaticService(), TestServers.flags(root, "--no-sendfile"));
    port = rt.port();
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
    await().atMost(Duration.ofSeconds(30)).until(() -> openOnto(bigFile) == 0);
    for (int i = 0; i < 200; i++) {
      assertThat(HttpWire.get(port, "/big.bin", "Range: bytes=0-99\r\n").body()).hasSize(100);
    }
    // Each answer opens big.bin and closes it when done, asynchronously on the blocking pool:
    // descriptors onto that file, and no others, are counted, so none may be left.
    await().atMost(Duration.ofSeconds(30)).until(() -> openOnto(bigFile) == 0);
  }

  /** How many of this JVM's descriptors are open onto the file. */
  private static long openOnto(Path file) throws IOException {
    Path real = file.toRealPath();
    try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
      return fds.filter(fd -> {
        try {
          return Files.readSymbolicLink(fd).equals(real);
        } catch (IOException e) {
          return false; // closed meanwhile
        }
      }).count();
    }
  }
}
