package io.portshare.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.handler.timeout.IdleStateHandler;
import io.portshare.kit.LoopbackSocket;
import io.portshare.runtime.impl.ServiceRuntime;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.impl.VertxConnection;
import io.vertx.ext.web.Router;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code --idle-timeout} on a user's HttpServer and NetServer, on both channels: on the lean ones
 * the runtime's sweep keeps it (no Netty {@code IdleStateHandler} in a connection's pipeline:
 * that test fails when a Vert.x upgrade adds its own in spite of the runtime), on Netty's own
 * Vert.x's handler does. Either way an idle connection closes after the timeout, not before, and
 * one in use stays open; the sweep also keeps a connection open while a long answer still leaves,
 * where Vert.x's handler closes it.
 */
class IdleSweepTest {

  private static final long TIMEOUT_MILLIS = 400;
  /** The sweep's period for that timeout (a quarter), and room for a loaded machine's scheduling. */
  private static final long LATE_MILLIS = TIMEOUT_MILLIS / 4 + 1_000;
  private static final int BIG_ANSWER = 64 << 20;
  private static final Duration SOCKET_TIMEOUT = Duration.ofSeconds(10);

  @RegisterExtension
  final Runtimes runtimes = new Runtimes();

  @ParameterizedTest(name = "{0} server, {1} channels, mode {2}")
  @CsvSource({"http, lean, reuseport", "http, lean, shared", "net, lean, reuseport", "net, lean, shared",
      "http, netty, reuseport", "net, netty, reuseport"})
  void anIdleConnectionClosesAfterTheTimeoutAndNotBefore(String server, String channel, String mode)
      throws IOException {
    IdleServers service = new IdleServers(server.equals("http"));
    int port = start(service, channel, mode);
    try (Socket s = LoopbackSocket.connect(port, SOCKET_TIMEOUT)) {
      long start = System.nanoTime();
      s.setSoTimeout((int) (TIMEOUT_MILLIS + LATE_MILLIS) * 5);
      assertThat(s.getInputStream().read()).as("the server closes the idle connection").isEqualTo(-1);
      long tookMillis = (System.nanoTime() - start) / 1_000_000;
      assertThat(tookMillis).as("ms to the close").isBetween(TIMEOUT_MILLIS - 20, TIMEOUT_MILLIS + LATE_MILLIS);
    }
    assertThat(service.idleHandlers).as("Netty IdleStateHandler in each connection's pipeline")
        .containsOnly(channel.equals("netty"));
  }

  @ParameterizedTest(name = "{0} channels")
  @ValueSource(strings = {"lean", "netty"})
  void aKeptAliveConnectionInUseStaysOpenPastTheTimeout(String channel) throws IOException {
    int port = start(new IdleServers(true), channel, "reuseport");
    try (Socket s = LoopbackSocket.connect(port, SOCKET_TIMEOUT)) {
      long end = System.nanoTime() + TIMEOUT_MILLIS * 3 * 1_000_000;
      int answered = 0;
      while (System.nanoTime() < end) {
        s.getOutputStream().write("GET /a HTTP/1.1\r\nHost: t\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
        readAnswer(s.getInputStream());
        answered++;
        sleep(TIMEOUT_MILLIS / 4);
      }
      assertThat(answered).isGreaterThanOrEqualTo(6);
    }
  }

  /**
   * 64 MiB written at once to a client that reads slowly, past the timeout many times: the sweep
   * sees its bytes leave and keeps the connection; Vert.x's handler, which waits for the write to
   * complete, closes it.
   */
  @ParameterizedTest(name = "{0} channels")
  @ValueSource(strings = {"lean", "netty"})
  void aLongAnswerStillLeavingIsNotIdle(String channel) throws IOException {
    int port = start(new IdleServers(false), channel, "reuseport");
    long received = 0;
    try (Socket s = new Socket()) {
      s.setReceiveBufferSize(64 << 10);
      s.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
      s.setSoTimeout(10_000);
      s.getOutputStream().write('x');
      InputStream in = s.getInputStream();
      byte[] buf = new byte[256 << 10];
      long start = System.nanoTime();
      // About 8 MiB a second: 8 s for the whole answer, 20 timeouts.
      while (received < BIG_ANSWER) {
        int n = in.read(buf);
        if (n < 0) {
          break;
        }
        received += n;
        long dueMillis = received / (8 << 10);
        long aheadMillis = dueMillis - (System.nanoTime() - start) / 1_000_000;
        if (aheadMillis > 0) {
          sleep(aheadMillis);
        }
      }
    }
    if (channel.equals("lean")) {
      assertThat(received).as("bytes of the answer received").isEqualTo(BIG_ANSWER);
    } else {
      assertThat(received).as("bytes received before Vert.x's idle handler closed").isLessThan(BIG_ANSWER);
    }
  }

  @Test
  void withNoIdleTimeoutNothingIsSwept() throws IOException {
    IdleServers service = new IdleServers(true);
    ServiceRuntime runtime = runtimes.start(service, "--port", "0", "--admin-port", "0", "--host", "127.0.0.1",
        "--instances", "1", "--warmup", "0s", "--idle-timeout", "0s");
    try (Socket s = LoopbackSocket.connect(runtime.port(), SOCKET_TIMEOUT)) {
      s.setSoTimeout((int) (TIMEOUT_MILLIS * 3));
      assertThat(readOrTimeout(s.getInputStream())).as("no close").isFalse();
    }
  }

  private int start(IdleServers service, String channel, String mode) {
    ServiceRuntime runtime = runtimes.start(service, "--port", "0", "--admin-port", "0", "--host", "127.0.0.1",
        "--instances", "2", "--mode", mode, "--warmup", "0s", "--channel", channel, "--idle-timeout",
        TIMEOUT_MILLIS + "ms");
    return runtime.port();
  }

  /** True when the stream ended, false when nothing came for the socket's timeout. */
  private static boolean readOrTimeout(InputStream in) throws IOException {
    try {
      return in.read() == -1;
    } catch (java.net.SocketTimeoutException open) {
      return false;
    }
  }

  private static void readAnswer(InputStream in) throws IOException {
    assertThat(LoopbackSocket.readUntil(in, "ok\n")).as("an answer, not a close").endsWith("ok\n");
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  /**
   * An HTTP Router answering "ok", or a NetServer that answers a first byte with 64 MiB; each on the
   * runtime's options, noting for each connection whether its pipeline holds Netty's idle handler.
   */
  static final class IdleServers extends TestService {
    final List<Boolean> idleHandlers = new CopyOnWriteArrayList<>();
    private final boolean http;

    IdleServers(boolean http) {
      super("idle-servers", "a Router or a NetServer on the runtime's options");
      this.http = http;
    }

    @Override
    public ServiceVerticle newVerticle() {
      return new ServiceVerticle() {
        @Override
        public Future<?> start() {
          if (http) {
            Router router = Router.router(vertx);
            router.get().handler(ctx -> ctx.response().end("ok\n"));
            return service.listen(vertx.createHttpServer(service.httpServerOptions()).requestHandler(router),
                connection -> idleHandlers.add(((VertxConnection) connection).channelHandlerContext().pipeline()
                    .get(IdleStateHandler.class) != null));
          }
          NetServer server = vertx.createNetServer(service.netServerOptions()).connectHandler(socket -> {
            idleHandlers.add(NettyAccess.handlerContext(socket).pipeline().get(IdleStateHandler.class) != null);
            socket.handler(first -> socket.write(Buffer.buffer(new byte[BIG_ANSWER])));
          });
          return service.listen(server);
        }
      };
    }
  }
}
