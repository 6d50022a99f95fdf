package io.portshare.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.LineBasedFrameDecoder;
import io.portshare.kit.Ci;
import io.portshare.kit.LogCapture;
import io.portshare.kit.PrometheusText;
import io.portshare.runtime.impl.ServiceRuntime;
import io.portshare.runtime.net.CpuAffinity;
import io.vertx.core.Future;
import io.vertx.core.transport.Transport;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A service that serves on a Netty pipeline of its own ({@link ServiceContext#listen(io.vertx.core.net.NetServerOptions,
 * ConnectionInitializer)}): every mode binds it, the runtime counts its connections, each
 * connection is set up on the listening instance's own event loop with no Vert.x handler in its
 * pipeline, and the drain reaches it.
 */
class OwnPipelineTest {

  /** Longer than any test may take: a stop that ends has not waited for it. */
  private static final Duration LONG_DRAIN = Duration.ofMinutes(10);
  /** Only catches a hang. */
  private static final int HANG_SECONDS = 60;

  @RegisterExtension
  final Runtimes runtimes = new Runtimes();

  @ParameterizedTest(name = "--mode {0}")
  @ValueSource(strings = {"shared", "reuseport", "pinned"})
  void everyInstanceServesItsOwnPipelineAndTheRuntimeCountsIt(String mode) throws Exception {
    if (mode.equals("pinned")) {
      Ci.require(Transport.EPOLL.available() && CpuAffinity.load().allowedCpus().length >= 2,
          "pinned needs epoll and 2 CPUs");
    }
    LineService service = new LineService();
    ServiceRuntime runtime = runtimes.start(service, "--port", "0", "--admin-port", "0", "--host", "127.0.0.1",
        "--instances", "2", "--mode", mode);
    assertThat(runtime.mode().label()).as("the mode that runs").isEqualTo(mode);
    Set<String> instances = new HashSet<>();
    List<Socket> clients = new ArrayList<>();
    try {
      if (mode.equals("pinned")) {
        // Pinned steers each connection to the listener of the CPU that received it; on loopback the
        // kernel receives a client's SYN on the CPU that sent it, so every connection made from CPU k
        // must reach instance k, whose loop is pinned to CPU k.
        int[] cpus = CpuAffinity.load().allowedCpus();
        PrometheusText metrics = PrometheusText.parse(runtime.registry().scrape());
        for (int k = 0; k < 2; k++) {
          assertThat(metrics.value("portshare_event_loop_cpu", "service", "line", "loop", Integer.toString(k)))
              .as("the CPU of loop %d", k).contains((double) cpus[k]);
          List<String> answers = new ArrayList<>();
          onCpu(cpus[k], () -> {
            for (int i = 0; i < 4; i++) {
              Socket s = connect(runtime);
              clients.add(s);
              answers.add(ask(s, "who"));
            }
          });
          assertThat(answers).as("connections made from CPU %d", cpus[k]).hasSize(4).allMatch(
              ("instance " + k + " on its loop, handlers [line, answer, DefaultChannelPipeline$TailContext#0]")::equals);
        }
      } else {
        // Each instance gets connections in both modes (the kernel or Vert.x spreads them); 40 is plenty.
        for (int i = 0; i < 40 && (instances.size() < 2 || clients.size() < 4); i++) {
          Socket s = connect(runtime);
          clients.add(s);
          String answer = ask(s, "who");
          assertThat(answer).as("set up on the instance's own event loop, with no Vert.x handler")
              .matches("instance [01] on its loop, handlers \\[line, answer, DefaultChannelPipeline\\$TailContext#0\\]");
          instances.add(answer.substring(0, 10));
        }
        assertThat(instances).as("instances that answered").hasSize(2);
      }
      await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(open(runtime)).isEqualTo(clients.size()));
    } finally {
      for (Socket s : clients) {
        s.close();
      }
    }
    await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(open(runtime)).isZero());
    PrometheusText metrics = PrometheusText.parse(runtime.registry().scrape());
    assertThat(metrics.value("portshare_connections_accepted_total", "service", "line", "loop", "0").orElseThrow()
        + metrics.value("portshare_connections_accepted_total", "service", "line", "loop", "1").orElseThrow())
        .isEqualTo(clients.size());
  }

  @Test
  void theDrainClosesAnIdleConnectionAtOnceAndLetsTheRequestInFlightFinish() throws Exception {
    LineService service = new LineService();
    ServiceRuntime runtime = startOne(service);
    try (Socket idle = connect(runtime); Socket slow = connect(runtime)) {
      assertThat(ask(idle, "who")).startsWith("instance 0");
      send(slow, "hold");
      assertThat(service.held.await(HANG_SECONDS, TimeUnit.SECONDS)).as("the held request reached the service").isTrue();
      try (LogCapture log = LogCapture.attach()) {
        CompletableFuture<Void> stopped = CompletableFuture.runAsync(() -> runtime.stop(LONG_DRAIN));

        assertThat(idle.getInputStream().read()).as("the idle connection is closed").isEqualTo(-1);
        assertThat(stopped).as("the stop, while a request is in flight").isNotDone();
        assertThat(slow.getInputStream().available()).as("bytes answered to the held request").isZero();

        service.release.complete(null);
        BufferedReader in = reader(slow);
        assertThat(in.readLine()).as("the request in flight").isEqualTo("released");
        stopped.get(HANG_SECONDS, TimeUnit.SECONDS);
        assertThat(in.read()).as("closed after its answer").isEqualTo(-1);
        assertThat(log.warningsAndErrors()).as("warnings of the drain (a timeout would say so)").isEmpty();
      }
    }
  }

  @Test
  void aConnectionThatIgnoresTheDrainIsClosedWhenTheDrainTimeoutHasPassed() throws Exception {
    LineService service = new LineService();
    ServiceRuntime runtime = startOne(service);
    try (Socket deaf = connect(runtime)) {
      assertThat(ask(deaf, "deaf")).isEqualTo("deaf");
      CompletableFuture<Void> stopped = CompletableFuture.runAsync(() -> runtime.stop(Duration.ofMillis(500)));
      assertThat(deaf.getInputStream().read()).as("closed by the runtime at the drain timeout").isEqualTo(-1);
      stopped.get(HANG_SECONDS, TimeUnit.SECONDS);
    }
    assertThat(service.drainsSeen).as("drain events the deaf connection saw").isEqualTo(1);
  }

  @Test
  void theSweepVisitsEachOpenConnectionOfItsLoopAndMayCloseIt() throws Exception {
    LineService service = new LineService();
    service.sweep = true;
    ServiceRuntime runtime = startOne(service);
    try (Socket kept = connect(runtime); Socket failing = connect(runtime); Socket swept = connect(runtime);
        LogCapture log = LogCapture.attach()) {
      assertThat(ask(kept, "who")).startsWith("instance 0");
      assertThat(ask(failing, "fail")).isEqualTo("failing");
      await().atMost(Duration.ofSeconds(10)).until(() -> !log.warningsAndErrors().isEmpty());
      assertThat(ask(swept, "mark")).isEqualTo("marked");

      assertThat(swept.getInputStream().read()).as("the marked connection, closed by a later sweep").isEqualTo(-1);
      assertThat(ask(kept, "who")).as("the other one, visited and left open").startsWith("instance 0");
      assertThat(service.visitsOnLoop).as("visits, each on the loop").isPositive();
      assertThat(service.visitsOffLoop).isZero();
      assertThat(log.warningsAndErrors()).first().asString().contains("connection sweep", "IllegalStateException");
    }
  }

  @Test
  void anInitializerThatThrowsClosesThatConnectionAndSaysSoOnce() throws Exception {
    LineService service = new LineService();
    service.initThrows = true;
    ServiceRuntime runtime = startOne(service);
    try (LogCapture log = LogCapture.attach(); Socket s = connect(runtime)) {
      assertThat(s.getInputStream().read()).as("the connection whose set-up failed, closed").isEqualTo(-1);
      await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(log.warningsAndErrors())
          .filteredOn(line -> line.contains("Failed to initialize a channel")).singleElement().asString()
          .contains("Closing", "IllegalStateException"));
    }
    await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(open(runtime)).isZero());
  }

  @Test
  void listeningWithAPipelineOfItsOwnIsRefusedOffTheEventLoop() {
    LineService service = new LineService();
    service.listenFromWorker = true;
    assertThatThrownBy(() -> runtimes.start(service, "--port", "0", "--admin-port", "0", "--instances", "1"))
        .hasStackTraceContaining("is set up from its verticle's start, on its event loop");
  }

  @ParameterizedTest(name = "--transport {0} --channel {1}: {2}")
  @CsvSource({
      "epoll, lean,  AcceptedEpollChannel of EpollListener",
      "epoll, netty, EpollSocketChannel of EpollServerSocketChannel",
      "nio,   lean,  NioSocketChannel of NioServerSocketChannel",
  })
  void theChannelSwitchChoosesTheChannelsOnEpollOnly(String transport, String channel, String runs) throws Exception {
    ServiceRuntime runtime = runtimes.start(new LineService(), "--port", "0", "--admin-port", "0", "--host",
        "127.0.0.1", "--instances", "1", "--transport", transport, "--channel", channel);
    try (Socket s = connect(runtime)) {
      assertThat(ask(s, "channel")).isEqualTo(runs);
    }
  }

  @ParameterizedTest(name = "--mode {0}")
  @ValueSource(strings = {"shared", "reuseport"})
  void aPipelineOfItsOwnThatAsksForTlsIsRefusedWithOneLine(String mode) {
    LineService service = new LineService();
    service.tls = true;
    assertThatThrownBy(() -> runtimes.start(service, "--port", "0", "--admin-port", "0", "--host", "127.0.0.1",
        "--instances", "2", "--mode", mode))
        .isInstanceOf(StartException.class)
        .hasMessageStartingWith("cannot listen on port ")
        .hasMessageContaining("with TLS on a pipeline of the service's own")
        .hasMessageNotContaining("\n");
  }

  /** One instance of {@code service} on loopback, with ports the kernel chooses. */
  private ServiceRuntime startOne(LineService service) {
    return runtimes.start(service, "--port", "0", "--admin-port", "0", "--host", "127.0.0.1", "--instances", "1");
  }

  private static double open(ServiceRuntime runtime) {
    return PrometheusText.parse(runtime.registry().scrape()).value("portshare_connections_open", "service", "line")
        .orElseThrow();
  }

  /**
   * Answers each line: {@code who} with its instance, whether it was set up on that instance's loop
   * and the handlers in its pipeline; {@code hold} once the test completes {@code release};
   * {@code deaf} at once, and from then on this connection ignores the drain.
   */
  static final class LineService extends TestService {
    final CountDownLatch held = new CountDownLatch(1);
    final CompletableFuture<Void> release = new CompletableFuture<>();
    volatile int drainsSeen;
    volatile boolean listenFromWorker;
    /** Listen with TLS asked for in the options. */
    volatile boolean tls;
    /** The initializer throws, as a service's bug would. */
    volatile boolean initThrows;
    /** Sweep every 50 ms, closing connections that asked with {@code mark}; the visit of one that said {@code fail} throws. */
    volatile boolean sweep;
    volatile int visitsOnLoop;
    volatile int visitsOffLoop;

    LineService() {
      super("line", "answers lines on a pipeline of its own");
    }

    @Override
    public ServiceVerticle newVerticle() {
      return new ServiceVerticle() {
        private Thread loop;

        @Override
        public Future<?> start() {
          loop = Thread.currentThread();
          if (listenFromWorker) {
            return vertx.executeBlocking(() -> service.listen(service.netServerOptions(), this::init))
                .compose(f -> f);
          }
          Future<Void> listening = service.listen(service.netServerOptions().setSsl(tls), this::init);
          if (sweep) {
            service.sweepConnections(Duration.ofMillis(50), connection -> {
              if (Thread.currentThread() == loop) {
                visitsOnLoop++;
              } else {
                visitsOffLoop++;
              }
              Answer answer = connection.pipeline().get(Answer.class);
              if (answer.failing) {
                throw new IllegalStateException("a visit that fails");
              }
              if (answer.marked) {
                connection.close();
              }
            });
          }
          return listening;
        }

        private void init(io.netty.channel.Channel connection) {
          if (initThrows) {
            throw new IllegalStateException("an initializer that fails");
          }
          boolean onLoop = Thread.currentThread() == loop;
          connection.pipeline().addLast("line", new LineBasedFrameDecoder(64))
              .addLast("answer", new Answer(service.instance(), onLoop));
        }
      };
    }

    private final class Answer extends ChannelInboundHandlerAdapter {
      private final int instance;
      private final boolean onLoop;
      private boolean busy;
      private boolean deaf;
      private boolean marked;
      private boolean failing;

      Answer(int instance, boolean onLoop) {
        this.instance = instance;
        this.onLoop = onLoop;
      }

      @Override
      public void channelRead(ChannelHandlerContext ctx, Object msg) {
        String line = ((ByteBuf) msg).toString(StandardCharsets.US_ASCII);
        ((ByteBuf) msg).release();
        switch (line) {
          case "who" -> answer(ctx, "instance " + instance + (onLoop ? " on its loop" : " off its loop")
              + ", handlers " + ctx.pipeline().names());
          case "hold" -> {
            busy = true;
            held.countDown();
            release.thenRun(() -> ctx.executor().execute(() -> {
              busy = false;
              answer(ctx, "released");
              if (draining) {
                ctx.close();
              }
            }));
          }
          case "channel" -> answer(ctx, ctx.channel().getClass().getSimpleName() + " of "
              + ctx.channel().parent().getClass().getSimpleName());
          case "fail" -> {
            failing = true;
            answer(ctx, "failing");
          }
          case "mark" -> {
            marked = true;
            answer(ctx, "marked");
          }
          case "deaf" -> {
            deaf = true;
            answer(ctx, "deaf");
          }
          default -> answer(ctx, "?");
        }
      }

      private boolean draining;

      @Override
      public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt == DrainEvent.INSTANCE) {
          if (deaf) {
            drainsSeen++;
            return;
          }
          draining = true;
          if (!busy) {
            ctx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
          }
          return;
        }
        ctx.fireUserEventTriggered(evt);
      }

      private void answer(ChannelHandlerContext ctx, String s) {
        ctx.writeAndFlush(Unpooled.copiedBuffer(s + "\n", StandardCharsets.US_ASCII));
      }
    }
  }

  /** Runs {@code work} on a thread of its own bound to {@code cpu}. */
  private static void onCpu(int cpu, ThrowingRunnable work) throws Exception {
    ExecutorService client = Executors.newSingleThreadExecutor();
    try {
      client.submit(() -> {
        CpuAffinity.load().pinCurrentThread(cpu);
        work.run();
        return null;
      }).get(HANG_SECONDS, TimeUnit.SECONDS);
    } finally {
      client.shutdownNow();
    }
  }

  private interface ThrowingRunnable {
    void run() throws Exception;
  }

  private static Socket connect(ServiceRuntime runtime) throws IOException {
    Socket s = new Socket();
    s.setSoTimeout(HANG_SECONDS * 1000);
    s.connect(new InetSocketAddress("127.0.0.1", runtime.port()), 10_000);
    return s;
  }

  private static void send(Socket s, String line) throws IOException {
    s.getOutputStream().write((line + "\n").getBytes(StandardCharsets.US_ASCII));
  }

  private static String ask(Socket s, String line) throws IOException {
    send(s, line);
    // One byte at a time: a buffered reader would hold bytes a later read of the socket expects.
    StringBuilder answer = new StringBuilder();
    for (int b = s.getInputStream().read(); b != '\n'; b = s.getInputStream().read()) {
      if (b < 0) {
        return answer + "<closed>";
      }
      answer.append((char) b);
    }
    return answer.toString();
  }

  private static BufferedReader reader(Socket s) throws IOException {
    return new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII));
  }
}
