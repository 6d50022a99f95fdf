package io.portshare.statics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.portshare.kit.HttpWire;
import io.portshare.runtime.Runtimes;
import io.portshare.runtime.impl.ServiceRuntime;
import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
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
  static void start(TestInfo test) throws IOException {
    // JUnit also runs a superclass's static @BeforeAll that a subclass's hides: a subclass starts
    // its own server on another engine, so this one starts only for this class.
    if (test.getTestClass().orElseThrow() == NoSendfileTest.class) {
      startWith("own");
    }
  }

  /** The server under test on {@code engine} (own or vertx). */
  static void startWith(String engine) throws IOException {
    Path root = Files.createDirectories(tmp.resolve("root"));
    StaticServerTest.Site.populate(root, tmp.resolve("outside"));
    bigFile = root.resolve("big.bin");
    big = Files.readAllBytes(bigFile);
    rt = runtimes.start(new StaticService(), TestServers.flags(root, "--no-sendfile", "--engine", engine));
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
    // The copying path reads the file as it sends it: 16 MiB, more than the socket buffers hold
    // (4 MiB at most, by Linux's tcp_wmem), so after the client has read 1 MiB of the answer the file
    // must still be open; once the answer is read, closed. A file read whole before the answer goes
    // out (into memory, or from --memory-max's cache) is closed by then.
    Path huge = tmp.resolve("root/huge.bin");
    try (RandomAccessFile f = new RandomAccessFile(huge.toFile(), "rw")) {
      f.setLength(16L << 20);
    }
    try (Socket slow = new Socket()) {
      slow.setReceiveBufferSize(16 << 10);
      slow.setSoTimeout(60_000);
      slow.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
      slow.getOutputStream().write("GET /huge.bin HTTP/1.1\r\nHost: t\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      InputStream in = slow.getInputStream();
      // The head first, to its blank line, so that the body's bytes are counted exactly: a loop that
      // stopped at 16 MiB of head and body together could stop with the head's bytes still unread.
      String head = readHead(in);
      assertThat(head).startsWith("HTTP/1.1 200").containsIgnoringCase("content-length: " + (16L << 20));
      assertThat(in.readNBytes(1 << 20)).hasSize(1 << 20);
      assertThat(openOnto(huge)).as("descriptors onto the file while its answer is being sent").isEqualTo(1);
      long body = 1 << 20;
      byte[] buf = new byte[1 << 16];
      for (int n; body < 16L << 20 && (n = in.read(buf, 0, (int) Math.min(buf.length, (16L << 20) - body))) > 0; ) {
        body += n;
      }
      assertThat(body).as("bytes of the answer's body read").isEqualTo(16L << 20);
      await().atMost(Duration.ofSeconds(60)).until(() -> openOnto(huge) == 0);
    }

    HttpWire.get(port, "/big.bin");
    await().atMost(Duration.ofSeconds(30)).until(() -> openOnto(bigFile) == 0);
    for (int i = 0; i < 200; i++) {
      assertThat(HttpWire.get(port, "/big.bin", "Range: bytes=0-99\r\n").body()).hasSize(100);
    }
    // Each answer opens big.bin and closes it when done, asynchronously on the blocking pool:
    // descriptors onto that file, and no others, are counted, so none may be left.
    await().atMost(Duration.ofSeconds(30)).until(() -> openOnto(bigFile) == 0);
  }

  /** The answer's head, through its blank line, read a byte at a time so that no body byte is taken. */
  private static String readHead(InputStream in) throws IOException {
    StringBuilder head = new StringBuilder();
    while (!head.toString().endsWith("\r\n\r\n")) {
      int b = in.read();
      if (b < 0) {
        throw new IOException("the connection closed inside the answer's head: " + head);
      }
      head.append((char) b);
    }
    return head.toString();
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
