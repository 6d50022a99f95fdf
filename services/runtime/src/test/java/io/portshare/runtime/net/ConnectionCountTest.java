package io.portshare.runtime.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.portshare.examples.hello.HelloService;
import io.portshare.kit.Ci;
import io.portshare.kit.PrometheusText;
import io.portshare.runtime.Runtimes;
import io.portshare.runtime.impl.ServiceRuntime;
import io.vertx.core.transport.Transport;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The runtime counts connections from its transport: the hello service counts nothing itself, yet
 * /metrics shows every connection open, per loop, in every mode and with either accept path.
 */
class ConnectionCountTest {

  @RegisterExtension
  final Runtimes runtimes = new Runtimes();
  private ServiceRuntime runtime;

  @ParameterizedTest(name = "--mode {0} --accept-on-event-loop={1}")
  @CsvSource({"reuseport, true", "reuseport, false", "shared, true", "pinned, true"})
  void openAndAcceptedFollowTheClientsSockets(String mode, boolean acceptOnEventLoop) throws Exception {
    if (mode.equals("pinned")) {
      Ci.require(Transport.EPOLL.available() && CpuAffinity.load().allowedCpus().length >= 2,
          "pinned needs epoll and 2 CPUs");
    }
    runtime = runtimes.start(new HelloService(), "--port", "0", "--admin-port", "0", "--instances", "2",
        "--mode", mode, "--accept-on-event-loop=" + acceptOnEventLoop);
    // The mode asked for is the mode that runs: a pinned run that fell back to reuseport is not one.
    assertThat(runtime.mode().label()).isEqualTo(mode);
    List<Socket> clients = new ArrayList<>();
    try {
      for (int i = 0; i < 6; i++) {
        Socket s = new Socket();
        s.connect(new InetSocketAddress("127.0.0.1", runtime.port()));
        clients.add(s);
      }
      await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(open()).isEqualTo(6.0));
      PrometheusText metrics = metrics();
      assertThat(metrics.value("portshare_connections_accepted_total", "service", "hello", "loop", "0").orElseThrow()
          + metrics.value("portshare_connections_accepted_total", "service", "hello", "loop", "1").orElseThrow())
          .isEqualTo(6.0);
    } finally {
      for (Socket s : clients) {
        s.close();
      }
    }
    await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(open()).isZero());
  }

  private double open() {
    return metrics().value("portshare_connections_open", "service", "hello").orElseThrow();
  }

  private PrometheusText metrics() {
    return PrometheusText.parse(runtime.registry().scrape());
  }
}
