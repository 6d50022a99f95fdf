package io.portshare.runtime.launch;

import static org.assertj.core.api.Assertions.assertThat;

import io.portshare.kit.ServiceProcess;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The launcher as an operator meets it: a real process, real signals, real exit codes. */
class LauncherProcessTest {

  private static final Duration START = Duration.ofSeconds(60);
  private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();

  private HttpResponse<String> get(int port, String path) throws IOException, InterruptedException {
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
        .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void exampleServiceStartsThroughTheLauncherAndAnswers() throws Exception {
    try (ServiceProcess p = ServiceProcess.launch(Map.of("PORTSHARE_GREETING", "hi"),
        "--service", "hello", "--port", "0", "--admin-port", "0", "--instances", "2")) {
      p.awaitReady(START);

      assertThat(get(p.port(), "/").body()).startsWith("hi from loop ");
      assertThat(get(p.adminPort(), "/health/ready").statusCode()).isEqualTo(200);
      assertThat(p.output()).contains("portshare hello", "mode=reuseport", "instances=2");
    }
  }

  @Test
  void jsonLogFormatWritesOneJsonObjectPerLine() throws Exception {
    try (ServiceProcess p = ServiceProcess.launch(Map.of("PORTSHARE_LOG_FORMAT", "json"),
        "--service", "hello", "--port", "0", "--admin-port", "0", "--instances", "1")) {
      p.awaitReady(START);

      List<String> lines = p.output().lines().toList();
      assertThat(lines).isNotEmpty();
      for (String line : lines) {
        io.vertx.core.json.JsonObject json = new io.vertx.core.json.JsonObject(line);
        assertThat(json.getString("level")).isNotBlank();
        assertThat(json.getString("formattedMessage")).isNotNull();
      }
      assertThat(lines).anyMatch(l -> l.contains("ready in"));
    }
  }

  @Test
  void badConfigExitsTwoWithOneLine() throws Exception {
    try (ServiceProcess p = ServiceProcess.launch(Map.of("PORTSHARE_INSTANCES", "lots"), "--service", "hello")) {
      assertThat(p.awaitExit(START)).isEqualTo(2);
      assertThat(p.output().lines().toList()).containsExactly(
          "portshare: invalid value for instances: \"lots\" (from PORTSHARE_INSTANCES); expected an integer");
    }
  }

  @Test
  void unknownFlagExitsTwo() throws Exception {
    try (ServiceProcess p = ServiceProcess.launch(Map.of(), "--service", "hello", "--bogus")) {
      assertThat(p.awaitExit(START)).isEqualTo(2);
      assertThat(p.output().lines().toList()).containsExactly("portshare: unknown option --bogus (see --help)");
    }
  }

  @Test
  void helpListsEveryOptionWithItsDefaultAndExitsZero() throws Exception {
    try (ServiceProcess p = ServiceProcess.launch(Map.of(), "--service", "hello", "--help")) {
      assertThat(p.awaitExit(START)).isEqualTo(0);
      assertThat(p.output()).contains("--port N", "(default: 8000)", "--mode shared|reuseport|pinned",
          "(default: reuseport)", "--drain-timeout DURATION", "(default: 10s)", "--greeting TEXT",
          "--accept-on-event-loop[=true|false]");
      List<String> lines = p.output().lines().toList();
      String instances = lines.stream().filter(l -> l.contains("--instances N")).findFirst().orElseThrow();
      assertThat(instances).containsOnlyOnce("default").endsWith(", the CPUs this JVM may use)");
      // A metavar longer than the column gets a line of its own; the description is not run into it.
      assertThat(lines).contains("  --mode shared|reuseport|pinned");
      assertThat(lines.get(lines.indexOf("  --mode shared|reuseport|pinned") + 1))
          .matches(" {31}how instances share the port \\(default: reuseport\\)");
    }
  }

  @Test
  void portInUseExitsOneWithAClearLine() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getByName("0.0.0.0"));
        ServiceProcess p = ServiceProcess.launch(Map.of(), "--service", "hello", "--port",
            Integer.toString(taken.getLocalPort()), "--admin-port", "0", "--instances", "1")) {
      assertThat(p.awaitExit(START)).isEqualTo(1);
      assertThat(p.output()).contains("portshare: cannot listen on port " + taken.getLocalPort() + ": address already in use");
      assertThat(p.output()).doesNotContain("\tat ");
    }
  }

  @Test
  void sigtermDrainsTheRequestInFlightAfterReadinessTurnsFalseThenExitsZero() throws Exception {
    try (ServiceProcess p = ServiceProcess.launch(Map.of(), "--service", "hello", "--port", "0", "--admin-port", "0",
        "--instances", "2", "--drain-timeout", "10s")) {
      p.awaitReady(START);
      // One answered request first: the client is set up and its connection has spoken, so the
      // delayed request below is in flight on it when the drain comes (a connection that has not
      // spoken yet is closed at once by the drain, and a cold client can take longer than the wait).
      URI plain = URI.create("http://127.0.0.1:" + p.port() + "/");
      assertThat(http.send(HttpRequest.newBuilder(plain).build(), HttpResponse.BodyHandlers.ofString()).statusCode())
          .isEqualTo(200);
      CompletableFuture<HttpResponse<String>> inFlight = http.sendAsync(
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + p.port() + "/?delay=2000"))
              .timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
      Thread.sleep(500);

      p.terminate();
      // While the request is still being answered, readiness must already say no.
      List<Integer> readiness = new ArrayList<>();
      while (!inFlight.isDone()) {
        try {
          readiness.add(get(p.adminPort(), "/health/ready").statusCode());
        } catch (IOException e) {
          break;
        }
        Thread.sleep(50);
      }
      HttpResponse<String> answer = inFlight.get(20, TimeUnit.SECONDS);

      assertThat(answer.statusCode()).isEqualTo(200);
      assertThat(answer.body()).startsWith("hello from loop ");
      assertThat(readiness).contains(503);
      assertThat(p.awaitExit(Duration.ofSeconds(30))).isEqualTo(0);
      assertThat(p.output()).contains("stop requested", "stopped");
    }
  }

  @Test
  void underSystemdSocketActivationItServesTheSocketItIsGivenAndDrainsToExitZero() throws Exception {
    int port = freePort();
    try (ServiceProcess p = socketActivated(port, 1)) {
      // systemd-socket-activate execs the service on the first connection; it waits in the queue.
      try (Socket first = connectOnceListening(port)) {
        p.awaitReady(START);
      }

      assertThat(p.port()).isEqualTo(port);
      assertThat(get(port, "/").body()).startsWith("hello from loop ");
      assertThat(p.output()).contains("serving 1 inherited listening socket(s) on port " + port + " from LISTEN_FDS=1");
      p.terminate();
      assertThat(p.awaitExit(START)).isZero();
    }
  }

  @Test
  void underSystemdSocketActivationSocketsThatDoNotFitTheInstancesExitTwoWithOneLine() throws Exception {
    int port = freePort();
    try (ServiceProcess p = socketActivated(port, 2)) {
      try (Socket first = connectOnceListening(port)) {
        assertThat(p.awaitExit(START)).isEqualTo(2);
      }
      assertThat(p.output().lines().filter(l -> l.startsWith("portshare:")).toList()).containsExactly(
          "portshare: LISTEN_FDS=1 gives 1 listening socket but --mode reuseport with --instances 2 (--instances) "
              + "serves 2, one per instance");
    }
  }

  /** The hello service under systemd-socket-activate on {@code port}: started by the first connection. */
  private static ServiceProcess socketActivated(int port, int instances) throws IOException {
    return ServiceProcess.launchUnder(List.of("systemd-socket-activate", "-l", "127.0.0.1:" + port), Map.of(),
        "--service", "hello", "--port", "0", "--admin-port", "0", "--instances", Integer.toString(instances));
  }

  /** The first connection, once systemd-socket-activate listens (it starts as its own process). */
  private static Socket connectOnceListening(int port) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + START.toNanos();
    while (true) {
      try {
        return new Socket("127.0.0.1", port);
      } catch (IOException e) {
        if (System.nanoTime() > deadline) {
          throw e;
        }
        Thread.sleep(50);
      }
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
