package io.portshare.examples.hello;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.portshare.kit.HttpWire;
import io.portshare.runtime.Runtimes;
import io.portshare.runtime.UsageException;
import io.portshare.runtime.impl.ServiceRuntime;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the runtime promises a verticle written on Vert.x's own API (an {@code HttpServer}, no code of
 * the runtime's in it beyond {@code service.listen}): {@code config()} from the config file, the
 * descriptor's deployment hook, a readiness check of its own on {@code /health/ready}, and
 * {@code --max-connection-age} and {@code --idle-timeout} applied to its connections.
 */
class UserVerticlePromisesTest {

  private static final String KEEP_ALIVE_GET = "GET / HTTP/1.1\r\nHost: t\r\n\r\n";

  @RegisterExtension
  final Runtimes runtimes = new Runtimes();
  @TempDir
  Path dir;

  private ServiceRuntime start(String... more) {
    String[] base = {"--port", "0", "--admin-port", "0", "--host", "127.0.0.1", "--instances", "1"};
    String[] all = new String[base.length + more.length];
    System.arraycopy(base, 0, all, 0, base.length);
    System.arraycopy(more, 0, all, base.length, more.length);
    return runtimes.start(new HelloService(), all);
  }

  @Test
  void configHoldsTheFilesServiceSectionOverTheHooksConfig() throws Exception {
    Path yaml = Files.writeString(dir.resolve("hello.yaml"), """
        greeting: hi
        service:
          farewell: ciao
          downstream:
            hosts: [a, b]
            timeout-ms: 250
        """);
    ServiceRuntime rt = start("--config", yaml.toString());
    JsonObject config = new JsonObject(HttpWire.get(rt.port(), "/config").text());
    assertThat(config.getBoolean("from-hook")).as("set by beforeDeployingVerticle").isTrue();
    assertThat(config.getString("farewell")).as("the file's section wins over the hook's").isEqualTo("ciao");
    assertThat(config.getJsonObject("downstream").getJsonArray("hosts").getList()).containsExactly("a", "b");
    assertThat(config.getJsonObject("downstream").getInteger("timeout-ms")).isEqualTo(250);
    assertThat(config.containsKey("greeting")).as("the runtime's options stay in settings()").isFalse();
    assertThat(HttpWire.get(rt.port(), "/").text()).startsWith("hi from loop 0");
  }

  @Test
  void aServiceSectionThatIsNoMapFailsTheStartWithOneLine() throws Exception {
    Path yaml = Files.writeString(dir.resolve("bad.yaml"), "service: 3\n");
    assertThatThrownBy(() -> start("--config", yaml.toString()))
        .isInstanceOf(UsageException.class)
        .hasMessage("config file " + yaml + ": key \"service\" needs a map (the service's own config)");
  }

  @Test
  void aReadinessCheckOfTheServicesOwnIsOnHealthReadyByName() throws Exception {
    ServiceRuntime rt = start();
    Answer ready = admin(rt, "/health/ready");
    assertThat(ready.status()).isEqualTo(200);
    assertThat(ready.body()).contains("\"downstream\"").contains("\"serving\"");

    HttpWire.get(rt.port(), "/down");
    Answer down = admin(rt, "/health/ready");
    assertThat(down.status()).as("a check of the service's own is KO").isEqualTo(503);
    assertThat(down.body()).contains("\"downstream\"");

    HttpWire.get(rt.port(), "/up");
    assertThat(admin(rt, "/health/ready").status()).isEqualTo(200);
  }

  @Test
  void theFirstAnswerPastTheAgeSaysCloseAndTheConnectionClosesAfterIt() throws Exception {
    ServiceRuntime rt = start("--max-connection-age", "300ms");
    try (HttpWire c = new HttpWire(rt.port())) {
      HttpWire.Response young = c.send(KEEP_ALIVE_GET).read(false);
      assertThat(young.header("connection")).as("while young").isNull();
      Thread.sleep(400); // past 300 ms + 10% from the accept, which came before this connect returned
      // An idle old connection is not cut: its next answer closes it, here one held back 100 ms, so
      // the close waits for an answer the service writes later.
      HttpWire.Response old = c.send("GET /?delay=100 HTTP/1.1\r\nHost: t\r\n\r\n").read(false);
      assertThat(old.status()).isEqualTo(200);
      assertThat(old.text()).startsWith("hello from loop 0");
      assertThat(old.header("connection")).isEqualTo("close");
      assertThat(c.closedByServer(30_000)).as("closed after the answer that said so").isTrue();
    }
  }

  @Test
  void theIdleTimeoutClosesAConnectionThatNeitherReadsNorWrites() throws Exception {
    ServiceRuntime rt = start("--idle-timeout", "300ms");
    try (HttpWire c = new HttpWire(rt.port())) {
      assertThat(c.send(KEEP_ALIVE_GET).read(false).status()).isEqualTo(200);
      long quietFrom = System.nanoTime();
      assertThat(c.closedByServer(30_000)).as("closed by --idle-timeout").isTrue();
      assertThat((System.nanoTime() - quietFrom) / 1_000_000).as("not before the timeout, in ms")
          .isGreaterThanOrEqualTo(250);
    }
  }

  @Test
  void withoutAnAgeAKeepAliveConnectionStaysOpen() throws Exception {
    ServiceRuntime rt = start();
    try (HttpWire c = new HttpWire(rt.port())) {
      assertThat(c.send(KEEP_ALIVE_GET).read(false).status()).isEqualTo(200);
      assertThat(c.closedByServer(500)).isFalse();
      assertThat(c.send(KEEP_ALIVE_GET).read(false).status()).isEqualTo(200);
    }
  }

  private record Answer(int status, String body) {}

  private static Answer admin(ServiceRuntime rt, String path) throws IOException {
    HttpURLConnection c = (HttpURLConnection) URI.create("http://127.0.0.1:" + rt.adminPort() + path).toURL()
        .openConnection();
    try {
      int status = c.getResponseCode();
      byte[] body = (status < 400 ? c.getInputStream() : c.getErrorStream()).readAllBytes();
      return new Answer(status, new String(body, java.nio.charset.StandardCharsets.UTF_8));
    } finally {
      c.disconnect();
    }
  }
}
