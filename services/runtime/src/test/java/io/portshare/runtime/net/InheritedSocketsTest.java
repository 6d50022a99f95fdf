package io.portshare.runtime.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.portshare.examples.hello.HelloService;
import io.portshare.runtime.Runtimes;
import io.portshare.runtime.Settings;
import io.portshare.runtime.UsageException;
import io.portshare.runtime.admin.AdminServer;
import io.portshare.runtime.admin.EventLoopBeats;
import io.portshare.runtime.impl.ServiceRuntime;
import io.vertx.core.Vertx;
import io.vertx.core.transport.Transport;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The runtime on listening sockets it is given (systemd's LISTEN_FDS, a supervisor's hand-over):
 * it binds none of its own, serves each, and a drain closes its own descriptors of them while their
 * holder keeps them listening, so a successor answers what queued meanwhile.
 */
class InheritedSocketsTest {

  private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();
  @RegisterExtension
  final Runtimes runtimes = new Runtimes();
  private final List<Integer> fds = new ArrayList<>();

  @AfterEach
  void closeSockets() {
    // The sockets outlive the runtimes they were handed to.
    runtimes.stopAll();
    fds.forEach(RawListeners::close);
  }

  /** {@code n} SO_REUSEPORT listening sockets on one free loopback port, as a supervisor binds them. */
  private int listeners(int n) {
    int port = 0;
    for (int i = 0; i < n; i++) {
      int fd = RawListeners.bindReuseport(new InetSocketAddress(LOOPBACK, port), 128);
      fds.add(fd);
      port = RawListeners.localAddress(fd).getPort();
    }
    return port;
  }

  private ServiceRuntime start(String... flags) {
    List<String> all = new ArrayList<>(List.of(Runtimes.withChannel(flags)));
    all.add("--warmup=0");
    Settings settings = Settings.resolve(ServiceRuntime.options(new HelloService()), all, Map.of());
    // Each its own descriptors of the sockets, as a process is handed them: it closes them as it drains.
    LinuxLibC libc = LinuxLibC.load();
    List<Integer> handed = fds.stream().map(libc::dup).collect(Collectors.toList());
    return runtimes.start(new HelloService(), settings, InheritedSockets.of(handed, "test", null));
  }

  @Test
  void eachInstanceServesTheSocketItIsGivenAndBindsNone() throws Exception {
    int port = listeners(2);

    ServiceRuntime rt = start("--port", "0", "--admin-port", "0", "--host", "127.0.0.1", "--instances", "2",
        "--mode", "reuseport");

    assertThat(rt.port()).isEqualTo(port);
    assertThat(ReuseportSteering.listeningOn(port)).as("sockets on the port: the two given, no new one").isEqualTo(2);
    for (int i = 0; i < 20; i++) {
      assertThat(get(port)).contains("200 OK");
    }
  }

  @Test
  void ioUringAskedForServesTheInheritedSocketsOnEpoll() throws Exception {
    int port = listeners(2);

    ServiceRuntime rt = start("--port", "0", "--admin-port", "0", "--host", "127.0.0.1", "--instances", "2",
        "--mode", "reuseport", "--transport", "io_uring");

    assertThat(rt.transport()).isEqualTo("epoll");
    assertThat(ReuseportSteering.listeningOn(port)).isEqualTo(2);
    assertThat(get(port)).contains("200 OK");
  }

  @Test
  void sharedModeServesOneSocketWithAllItsInstances() throws Exception {
    int port = listeners(1);

    start("--port", Integer.toString(port), "--admin-port", "0", "--instances", "2", "--mode", "shared");

    assertThat(ReuseportSteering.listeningOn(port)).isEqualTo(1);
    assertThat(get(port)).contains("200 OK");
  }

  @Test
  void aDrainLeavesTheSocketListeningAndItsSuccessorAnswersWhatQueuedMeanwhile() throws Exception {
    int port = listeners(1);
    ServiceRuntime first = start("--port", "0", "--admin-port", "0", "--instances", "1");
    assertThat(get(port)).contains("200 OK");

    first.stop(Duration.ofSeconds(2));

    assertThat(ReuseportSteering.listeningOn(port)).as("the socket outlives the drained instance").isEqualTo(1);
    try (Socket waiting = new Socket()) {
      // Nobody accepts now: the connection waits in the accept queue, request and all.
      waiting.connect(new InetSocketAddress(LOOPBACK, port), 5000);
      waiting.setSoTimeout(30_000);
      waiting.getOutputStream().write(request());
      start("--port", "0", "--admin-port", "0", "--instances", "1");
      assertThat(readAll(waiting.getInputStream())).contains("200 OK");
    }
  }

  @Test
  void socketsThatDoNotFitTheLayoutOrThePortAreOneLineErrors() {
    int port = listeners(2);

    assertThatThrownBy(() -> start("--port", "0", "--admin-port", "0", "--instances", "1"))
        .isInstanceOf(UsageException.class)
        .hasMessage("test gives 2 listening sockets but --mode reuseport with --instances 1 (--instances) serves 1, "
            + "one per instance");
    assertThatThrownBy(() -> start("--port", "0", "--admin-port", "0", "--instances", "3", "--mode", "shared"))
        .isInstanceOf(UsageException.class)
        .hasMessageContaining("gives 2 listening sockets but --mode shared with --instances 3");
    int other = port == 65535 ? port - 1 : port + 1;
    assertThatThrownBy(() -> start("--port", Integer.toString(other), "--admin-port", "0", "--instances", "2"))
        .isInstanceOf(UsageException.class)
        .hasMessage("test gives sockets listening on port " + port + " but --port is " + other + " (--port); give "
            + "--port " + port + " or 0");
    assertThatThrownBy(() -> start("--port", "0", "--admin-port", "0", "--instances", "2", "--transport", "nio"))
        .isInstanceOf(UsageException.class)
        .hasMessageContaining("needs --transport epoll");
  }

  @Test
  void aDescriptorThatIsNotAListeningTcpSocketIsRefused() {
    LinuxLibC libc = LinuxLibC.load();
    int notListening = libc.socket(LinuxLibC.AF_INET, LinuxLibC.SOCK_STREAM, 0);
    int datagram = libc.socket(LinuxLibC.AF_INET, 2, 0);
    try {
      assertThatThrownBy(() -> InheritedSockets.of(List.of(notListening), "LISTEN_FDS=1", null))
          .isInstanceOf(UsageException.class)
          .hasMessage("LISTEN_FDS=1: descriptor " + notListening + " is a TCP socket that is not listening; expected "
              + "a listening TCP socket");
      assertThatThrownBy(() -> InheritedSockets.of(List.of(datagram), "LISTEN_FDS=1", null))
          .isInstanceOf(UsageException.class)
          .hasMessageStartingWith("LISTEN_FDS=1: descriptor " + datagram + " is not a TCP socket");
      assertThatThrownBy(() -> InheritedSockets.of(List.of(100_000), "LISTEN_FDS=1", null))
          .isInstanceOf(UsageException.class)
          .hasMessageStartingWith("LISTEN_FDS=1: descriptor 100000 is not a socket");
    } finally {
      libc.close(notListening);
      libc.close(datagram);
    }
  }

  @Test
  void listenFdsCountOnlyForTheProcessLISTEN_PIDNames() {
    assertThat(InheritedSockets.fromListenFds(Map.of("LISTEN_PID", "1", "LISTEN_FDS", "2"), 42).isEmpty()).isTrue();
    assertThat(InheritedSockets.fromListenFds(Map.of("LISTEN_FDS", "2"), 42).isEmpty()).isTrue();
    assertThatThrownBy(() -> InheritedSockets.fromListenFds(Map.of("LISTEN_PID", "42", "LISTEN_FDS", "two"), 42))
        .isInstanceOf(UsageException.class)
        .hasMessageStartingWith("invalid value for LISTEN_FDS: \"two\"");
  }

  @Test
  void aSupervisedReplacementSharesTheAdminPortOfTheOneItReplaces() throws Exception {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    Vertx a = Vertx.builder().withTransport(Transport.EPOLL).build();
    Vertx b = Vertx.builder().withTransport(Transport.EPOLL).build();
    try {
      AdminServer old = new AdminServer(a, registry, "127.0.0.1", 0, true, new EventLoopBeats(Duration.ofSeconds(10)));
      old.start().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
      AdminServer fresh = new AdminServer(b, registry, "127.0.0.1", old.actualPort(), true,
          new EventLoopBeats(Duration.ofSeconds(10)));
      fresh.start().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
      assertThat(fresh.actualPort()).isEqualTo(old.actualPort());
    } finally {
      a.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
      b.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
  }

  private static byte[] request() {
    return "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
  }

  private static String get(int port) throws IOException {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(LOOPBACK, port), 5000);
      s.setSoTimeout(10_000);
      s.getOutputStream().write(request());
      return readAll(s.getInputStream());
    }
  }

  private static String readAll(InputStream in) throws IOException {
    return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
  }
}
