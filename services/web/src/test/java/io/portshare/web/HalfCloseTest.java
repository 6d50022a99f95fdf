package io.portshare.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Vertx;
import io.vertx.ext.web.Router;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client that sends its request and at once its FIN (shutdownOutput), then reads. Vert.x 5 leaves
 * Netty's ALLOW_HALF_CLOSURE off and offers no option for it, so Netty closes the connection when it
 * reads that FIN: an answer written later, as one after a lookup on a worker is, never leaves (the
 * close comes first; pausing the request does not stop it). With
 * {@link StaticFiles.Builder#missesOnEventLoop} the answer is written while the request is being read,
 * before the FIN is, as the own engine writes it. The worker case is kept as the check of that
 * assumption: when a Vert.x upgrade keeps a half-closed connection open it fails, and
 * missesOnEventLoop can go.
 */
class HalfCloseTest {

  private static final int FILES = 30;

  @TempDir
  Path root;
  Vertx vertx;

  @AfterEach
  void stop() {
    if (vertx != null) {
      vertx.close().await();
    }
  }

  @Test
  void onTheEventLoopEveryMissIsAnsweredBeforeTheClientsFinCloses() throws IOException {
    int port = serve(true);
    for (int i = 0; i < FILES; i++) {
      assertThat(getAndFin(port, i)).as("answer %d", i).startsWith("HTTP/1.1 200").endsWith("file " + i + "\n");
    }
  }

  @Test
  void onAWorkerTheClientsFinClosesTheConnectionBeforeTheAnswer() throws IOException {
    int port = serve(false);
    int lost = 0;
    for (int i = 0; i < FILES; i++) {
      String answer = getAndFin(port, i);
      if (answer.isEmpty()) {
        lost++; // closed by the server (an end of stream, not a timeout or a reset) with nothing written
      } else {
        assertThat(answer).as("answer %d", i).startsWith("HTTP/1.1 200").endsWith("file " + i + "\n");
      }
    }
    assertThat(lost).as("misses of %d unanswered: none means Vert.x now keeps a half-closed connection open"
        + " (then StaticFiles may look up on a worker for static-server too)", FILES).isPositive();
  }

  private int serve(boolean missesOnEventLoop) throws IOException {
    for (int i = 0; i < FILES; i++) {
      Files.writeString(root.resolve("f" + i + ".txt"), "file " + i + "\n");
    }
    vertx = Vertx.vertx();
    Router router = Router.router(vertx);
    router.route().handler(StaticFiles.webroot(root).missesOnEventLoop(missesOnEventLoop).build());
    router.route().handler(ctx -> ctx.response().setStatusCode(404).end());
    return vertx.createHttpServer().requestHandler(router).listen(0).await().actualPort();
  }

  /** GET /f{i}.txt, the FIN right after it, and all the server sends until it closes. */
  private static String getAndFin(int port, int i) throws IOException {
    try (Socket s = new Socket("127.0.0.1", port)) {
      s.setSoTimeout(10_000);
      s.getOutputStream().write(("GET /f" + i + ".txt HTTP/1.1\r\nHost: t\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
      s.shutdownOutput();
      ByteArrayOutputStream all = new ByteArrayOutputStream();
      s.getInputStream().transferTo(all);
      return all.toString(StandardCharsets.ISO_8859_1);
    }
  }
}
