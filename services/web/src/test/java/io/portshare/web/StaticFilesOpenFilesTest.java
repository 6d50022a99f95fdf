package io.portshare.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.portshare.kit.Ci;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.ext.web.Router;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The descriptors StaticFiles keeps open for sendfile, as the process's /proc/self/fd shows them: one
 * per large file for all its answers; the old one closed once a file replaced on disk is looked up
 * again, but not while an answer is still being sent from it; all closed by close() in the verticle's
 * stop(), as its javadoc says to call it, on every event loop the handler ran on.
 */
class StaticFilesOpenFilesTest {

  private static final Duration REVALIDATE = Duration.ofMillis(200);
  private static final Duration SETTLED = Duration.ofMillis(300);

  @TempDir
  Path tmp;
  Path big;
  Vertx vertx;
  RouterVerticle verticle;
  String deployment;

  @BeforeEach
  void serve() throws IOException {
    Path fds = Path.of("/proc/self/fd");
    Ci.require(Files.isDirectory(fds), "no " + fds + " (Linux only): the descriptors cannot be counted");
    Path root = tmp.toRealPath();
    big = root.resolve("big.bin");
    Files.write(big, bytes(100_000, 1)); // past memoryMax (32 KiB): answered by sendfile
    vertx = Vertx.vertx();
    verticle = new RouterVerticle(root, b -> b.revalidate(REVALIDATE));
    deployment = vertx.deployVerticle(verticle).await();
  }

  @AfterEach
  void stop() {
    vertx.close().await();
  }

  @Test
  void aLargeFileIsOpenedOnceForAllItsAnswersAndClosedByCloseInStop() throws IOException {
    for (int i = 0; i < 3; i++) {
      assertThat(Wire.get(verticle.port(), "/big.bin").body()).hasSize(100_000);
    }
    assertThat(Wire.get(verticle.port(), "/big.bin", "Range: bytes=10-19").status()).isEqualTo(206);
    await().during(SETTLED).atMost(Duration.ofSeconds(10)).until(() -> openOnto(big.toString()) == 1);

    vertx.undeploy(deployment).await();
    assertThat(openOnto(big.toString())).as("descriptors onto big.bin once stop() closed the handler").isZero();
  }

  @Test
  void aFileReplacedOnDiskIsServedNewAndItsOldDescriptorClosed() throws IOException {
    assertThat(Wire.get(verticle.port(), "/big.bin").body()).hasSize(100_000);
    await().atMost(Duration.ofSeconds(10)).until(() -> openOnto(big.toString()) == 1);

    byte[] replacement = bytes(120_000, 2);
    replace(big, replacement);
    assertThat(openOnto(big + " (deleted)")).as("the old file, still held").isEqualTo(1);
    await().atMost(Duration.ofSeconds(10)).until(() -> Wire.get(verticle.port(), "/big.bin").body().length == 120_000);

    assertThat(Wire.get(verticle.port(), "/big.bin").body()).isEqualTo(replacement);
    await().during(SETTLED).atMost(Duration.ofSeconds(10))
        .until(() -> openOnto(big + " (deleted)") == 0 && openOnto(big.toString()) == 1);
  }

  /**
   * Vert.x's sendFile sends from the descriptor it is given until the answer is written: a client that
   * reads slowly keeps the replaced file open (and gets it whole) after the cache has let it go.
   */
  @Test
  void anAnswerStillBeingSentKeepsItsReplacedFileOpenUntilWritten() throws IOException {
    byte[] old = bytes(32 << 20, 3); // far more than the socket buffers hold
    replace(big, old);
    try (Socket slow = new Socket()) {
      slow.setReceiveBufferSize(16 << 10);
      slow.setSoTimeout(30_000);
      slow.connect(new InetSocketAddress("127.0.0.1", verticle.port()));
      slow.getOutputStream().write("GET /big.bin HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n"
          .getBytes(StandardCharsets.ISO_8859_1));
      InputStream in = slow.getInputStream();
      byte[] start = in.readNBytes(4096); // the answer has begun; the rest waits in the kernel and the file
      await().atMost(Duration.ofSeconds(10)).until(() -> openOnto(big.toString()) == 1);

      replace(big, bytes(40_000, 4));
      await().atMost(Duration.ofSeconds(10)).until(() -> Wire.get(verticle.port(), "/big.bin").body().length == 40_000);
      assertThat(openOnto(big + " (deleted)")).as("the old file while its answer is being sent").isEqualTo(1);

      ByteArrayOutputStream all = new ByteArrayOutputStream();
      all.write(start);
      in.transferTo(all);
      byte[] answer = all.toByteArray();
      int body = Wire.indexOf(answer, "\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1)) + 4;
      assertThat(answer.length - body).as("body bytes of the slow answer").isEqualTo(old.length);
      assertThat(java.util.Arrays.equals(answer, body, answer.length, old, 0, old.length))
          .as("the slow answer is the old file whole").isTrue();
    }
    await().atMost(Duration.ofSeconds(10)).until(() -> openOnto(big + " (deleted)") == 0);
  }

  /**
   * One handler on the Routers of two verticles, so on two event loops, each with a cache of its own:
   * close() called from neither closes the files of both, each on its own loop.
   */
  @Test
  void closeReachesTheCacheOfEveryEventLoopTheHandlerRanOn() throws IOException {
    StaticFiles shared = StaticFiles.webroot(big.getParent()).build();
    List<Integer> ports = new ArrayList<>();
    List<Thread> loops = new CopyOnWriteArrayList<>();
    for (int i = 0; i < 2; i++) {
      vertx.deployVerticle(new VerticleBase() {
        @Override
        public Future<?> start() {
          Router router = Router.router(vertx);
          router.route().handler(ctx -> {
            loops.add(Thread.currentThread());
            ctx.next();
          });
          router.route().handler(shared);
          return vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1")
              .onSuccess(server -> ports.add(server.actualPort()));
        }
      }).await();
    }
    for (int port : ports) {
      assertThat(Wire.get(port, "/big.bin").body()).hasSize(100_000);
    }
    assertThat(loops.stream().distinct().count()).as("event loops the handler ran on").isEqualTo(2);
    await().atMost(Duration.ofSeconds(10)).until(() -> openOnto(big.toString()) == 2); // one per event loop

    shared.close();
    await().atMost(Duration.ofSeconds(10)).until(() -> openOnto(big.toString()) == 0);
  }

  /** Replaces {@code file} with a new one of {@code content}, by a rename over it (a new inode, as a deploy does). */
  private static void replace(Path file, byte[] content) throws IOException {
    Path next = file.resolveSibling(".next");
    Files.write(next, content);
    Files.move(next, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  /** How many of this JVM's descriptors point at {@code target} (a path, or a path and " (deleted)"). */
  static long openOnto(String target) throws IOException {
    try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
      return fds.filter(fd -> {
        try {
          return Files.readSymbolicLink(fd).toString().equals(target);
        } catch (IOException gone) {
          return false; // closed while listed
        }
      }).count();
    }
  }

  private static byte[] bytes(int n, long seed) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    return b;
  }

}
