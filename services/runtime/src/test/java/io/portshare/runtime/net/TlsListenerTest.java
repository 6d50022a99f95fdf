package io.portshare.runtime.net;

import static org.assertj.core.api.Assertions.assertThat;

import io.portshare.kit.PrometheusText;
import io.portshare.runtime.Runtimes;
import io.portshare.runtime.ServiceVerticle;
import io.portshare.runtime.TestService;
import io.portshare.runtime.impl.ServiceRuntime;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.net.PfxOptions;
import io.vertx.junit5.VertxExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * TLS on a Vert.x server works in every mode and on both channels: Vert.x resolves the server's
 * TLS context before it binds, in a callback, and the runtime's listener layer must still count
 * each connection and hand it to Vert.x's pipeline, whose TLS handler then answers. A self-signed
 * certificate made by the JDK's keytool for each run.
 */
@ExtendWith(VertxExtension.class)
class TlsListenerTest {

  private static final String PASSWORD = "portshare";

  @TempDir
  static Path dir;
  static Path keyStore;

  @RegisterExtension
  final Runtimes runtimes = new Runtimes();

  @BeforeAll
  static void makeCertificate() throws Exception {
    keyStore = dir.resolve("server.p12");
    Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
    Process p = new ProcessBuilder(keytool.toString(), "-genkeypair", "-alias", "server", "-keyalg", "EC",
        "-groupname", "secp256r1", "-dname", "CN=localhost", "-validity", "2", "-storetype", "PKCS12",
        "-keystore", keyStore.toString(), "-storepass", PASSWORD, "-keypass", PASSWORD)
        .redirectErrorStream(true).start();
    String said = new String(p.getInputStream().readAllBytes());
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as("keytool: %s", said).isZero();
    assertThat(Files.size(keyStore)).isPositive();
  }

  @ParameterizedTest(name = "--mode {0} --channel {1}: TLS answers on every instance")
  @CsvSource({"shared, lean", "reuseport, lean", "pinned, lean", "shared, netty", "reuseport, netty",
      "pinned, netty"})
  void aVertxServerWithTlsAnswersInEveryModeOnBothChannels(String mode, String channel, Vertx client)
      throws Exception {
    ServiceRuntime runtime = runtimes.start(new TlsHello(), "--port", "0", "--admin-port", "0", "--host",
        "127.0.0.1", "--instances", "2", "--mode", mode, "--channel", channel);
    assertThat(runtime.mode().label()).as("the mode that runs").isEqualTo(mode);
    assertThat(runtime.plan().channelName()).as("the channels that run").isEqualTo(channel);

    HttpClient https = client.createHttpClient(new HttpClientOptions().setSsl(true).setTrustAll(true)
        .setVerifyHost(false).setKeepAlive(false), new PoolOptions().setHttp1MaxSize(8));
    List<Future<Buffer>> answers = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      answers.add(https.request(HttpMethod.GET, runtime.port(), "127.0.0.1", "/")
          .compose(req -> req.send().compose(HttpClientResponse::body)));
    }
    List<String> bodies = Future.all(answers).toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS)
        .<Buffer>list().stream().map(Buffer::toString).toList();

    assertThat(bodies).hasSize(60).allMatch(b -> b.startsWith("hello over TLS from loop "));
    if (!mode.equals("pinned")) {
      // Pinned steers each connection to the listener of the CPU that received it, and this client's
      // connections may all arrive on one CPU; still pinned after the bind means the steering took.
      assertThat(bodies).anyMatch(b -> b.contains("loop 0")).anyMatch(b -> b.contains("loop 1"));
    }
    PrometheusText metrics = PrometheusText.parse(runtime.registry().scrape());
    double accepted = metrics.value("portshare_connections_accepted_total", "service", "tls-hello", "loop", "0")
        .orElse(0.0) + metrics.value("portshare_connections_accepted_total", "service", "tls-hello", "loop", "1")
        .orElse(0.0);
    assertThat(accepted).as("connections the listener layer counted").isEqualTo(60.0);
  }

  /** An HTTPS server on Vert.x's API, on the service port. */
  private static final class TlsHello extends TestService {
    TlsHello() {
      super("tls-hello", "answers over TLS");
    }

    @Override
    public ServiceVerticle newVerticle() {
      return new ServiceVerticle() {
        @Override
        public Future<?> start() {
          String answer = "hello over TLS from loop " + service.instance() + "\n";
          return service.listen(vertx.createHttpServer(service.httpServerOptions().setSsl(true)
                  .setKeyCertOptions(new PfxOptions().setPath(keyStore.toString()).setPassword(PASSWORD)))
              .requestHandler(req -> req.response().end(answer)));
        }
      };
    }
  }
}
