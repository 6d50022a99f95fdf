package io.portshare.runtime.warmup;

import static org.assertj.core.api.Assertions.assertThat;

import io.portshare.examples.hello.HelloService;
import io.portshare.kit.Ci;
import io.portshare.kit.PrometheusText;
import io.portshare.runtime.Option;
import io.portshare.runtime.Runtimes;
import io.portshare.runtime.ServiceDescriptor;
import io.portshare.runtime.ServiceVerticle;
import io.portshare.runtime.Settings;
import io.portshare.runtime.WarmUpExchange;
import io.portshare.runtime.impl.ServiceRuntime;
import io.portshare.runtime.net.CpuAffinity;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.transport.Transport;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The warm-up before ready reaches every instance's listener and stays out of the traffic counts. */
class WarmUpTest {

  @RegisterExtension
  final Runtimes runtimes = new Runtimes();

  private ServiceRuntime start(String mode, String warmup) {
    return runtimes.start(new HelloService(), "--port", "0", "--admin-port", "0", "--host", "127.0.0.1",
        "--instances", "2", "--mode", mode, "--warmup", warmup);
  }

  @ParameterizedTest(name = "{0}: every instance is warmed, and no warm-up connection counts as accepted")
  @ValueSource(strings = {"reuseport", "shared", "pinned"})
  void warmsEveryInstanceAndCountsItApart(String mode) throws Exception {
    if (mode.equals("pinned")) {
      Ci.require(Transport.EPOLL.available() && CpuAffinity.load().allowedCpus().length >= 2,
          "pinned needs epoll and 2 CPUs");
    }
    // Short enough to end at the bound on a busy machine: what matters is where the traffic went.
    // When it settles instead, and when not, is SettlingTest's.
    ServiceRuntime runtime = start(mode, "2s");
    // The mode asked for is the mode that runs: a pinned run that fell back to reuseport is not one.
    assertThat(runtime.mode().label()).isEqualTo(mode);
    PrometheusText metrics = PrometheusText.parse(runtime.registry().scrape());

    double warmUp0 = metrics.value("portshare_warmup_connections_total", "loop", "0").orElseThrow();
    double warmUp1 = metrics.value("portshare_warmup_connections_total", "loop", "1").orElseThrow();
    assertThat(warmUp0).as("warm-up connections on instance 0").isGreaterThan(0);
    assertThat(warmUp1).as("warm-up connections on instance 1").isGreaterThan(0);
    double answered = metrics.value("portshare_warmup_exchanges", "outcome", "answered").orElseThrow();
    double failed = metrics.value("portshare_warmup_exchanges", "outcome", "failed").orElseThrow();
    assertThat(failed).isZero();
    // Every exchange was one connection that the servers counted as warm-up, none as accepted.
    assertThat(warmUp0 + warmUp1).isEqualTo(answered);
    assertThat(metrics.sum("portshare_connections_accepted_total")).isZero();
    assertThat(runtime.startTimes().warmedUp()).isTrue();
    assertThat(runtime.startTimes().warmUpEnded()).isIn("settled", "bound");
    assertThat(runtime.startTimes().readyMillis()).isGreaterThanOrEqualTo(runtime.startTimes().listeningMillis());

    // Traffic after ready is the service's own again.
    assertThat(get(runtime.port())).startsWith("HTTP/1.1 200");
    PrometheusText after = PrometheusText.parse(runtime.registry().scrape());
    assertThat(after.sum("portshare_connections_accepted_total")).isEqualTo(1);
    assertThat(after.sum("portshare_warmup_connections_total")).isEqualTo(warmUp0 + warmUp1);
  }

  @Test
  void zeroTurnsItOffAndStartTimesSaySo() {
    ServiceRuntime runtime = start("reuseport", "0");
    PrometheusText metrics = PrometheusText.parse(runtime.registry().scrape());

    assertThat(metrics.sum("portshare_warmup_connections_total")).isZero();
    assertThat(runtime.startTimes().warmedUp()).isFalse();
    assertThat(runtime.startTimes().warmUpEnded()).isEqualTo("off");
    assertThat(metrics.value("portshare_start_seconds", "until", "listening")).isPresent();
    assertThat(metrics.value("portshare_start_seconds", "until", "ready")).isPresent();
    assertThat(runtime.startTimes().describe()).contains("no warm-up");
  }

  @Test
  void aServiceThatDoesNotSpeakTheExchangeStartsAnyway() {
    // An exchange the service never answers as expected fails, and the warm-up gives up on it.
    HelloService hello = new HelloService();
    ServiceDescriptor mute = new ServiceDescriptor() {
      @Override
      public String name() {
        return hello.name();
      }

      @Override
      public String description() {
        return hello.description();
      }

      @Override
      public int defaultPort() {
        return hello.defaultPort();
      }

      @Override
      public int defaultAdminPort() {
        return hello.defaultAdminPort();
      }

      @Override
      public List<Option> options() {
        return hello.options();
      }

      @Override
      public ServiceVerticle newVerticle() {
        return hello.newVerticle();
      }

      @Override
      public Optional<WarmUpExchange> warmUp(Settings settings) {
        return Optional.of(new WarmUpExchange() {
          @Override
          public Buffer request() {
            return Buffer.buffer("not http\r\n\r\n");
          }

          @Override
          public boolean answered(Buffer received, boolean closed) {
            return false;
          }
        });
      }
    };
    ServiceRuntime runtime = runtimes.start(mute, "--port", "0", "--admin-port", "0", "--host", "127.0.0.1",
        "--instances", "1", "--warmup", "20s");

    assertThat(runtime.startTimes().warmUpEnded()).isEqualTo("failing");
  }

  private static String get(int port) throws IOException {
    try (Socket s = new Socket("127.0.0.1", port)) {
      OutputStream out = s.getOutputStream();
      out.write("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      InputStream in = s.getInputStream();
      return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
    }
  }
}
