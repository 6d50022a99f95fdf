package io.portshare.statics;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpVersion;
import io.portshare.kit.HttpWire;
import io.portshare.runtime.Runtimes;
import io.portshare.runtime.impl.ServiceRuntime;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** --max-connection-age: an old keep-alive connection gets Connection: close on its next answer. */
class MaxConnectionAgeTest {

  private static final String KEEP_ALIVE_GET = "GET /a.txt HTTP/1.1\r\nHost: t\r\n\r\n";

  @TempDir
  Path root;
  @RegisterExtension
  final Runtimes runtimes = new Runtimes();

  /** The engine under test; a subclass runs every test on the other. */
  String engine() {
    return "own";
  }

  /**
   * Judged without a clock's upper bound: youth on a server whose age no test outlives, age on one
   * whose 300 ms (+10%) the test waits out after its connect returned, so a slow machine only makes
   * the connection older.
   */
  @Test
  void theFirstAnswerAfterTheAgeSaysCloseAndTheServerCloses() throws Exception {
    Files.writeString(root.resolve("a.txt"), "hello");
    ServiceRuntime longLived = runtimes.start(new StaticService(),
        TestServers.flags(root, "--engine", engine(), "--max-connection-age", "10m"));
    try (HttpWire c = new HttpWire(longLived.port())) {
      for (int i = 0; i < 3; i++) {
        HttpWire.Response young = c.send(KEEP_ALIVE_GET).read(false);
        assertThat(young.status()).isEqualTo(200);
        assertThat(young.header("connection")).as("answer %d while young", i).isNull();
      }
      assertThat(c.closedByServer(100)).as("kept alive while young").isFalse();
    }

    ServiceRuntime shortLived = runtimes.start(new StaticService(),
        TestServers.flags(root, "--engine", engine(), "--max-connection-age", "300ms"));
    try (HttpWire c = new HttpWire(shortLived.port())) {
      Thread.sleep(400); // past 300 ms + 10% from the accept, which came before this connect returned
      HttpWire.Response old = c.send(KEEP_ALIVE_GET).read(false);
      assertThat(old.status()).isEqualTo(200);
      assertThat(old.text()).isEqualTo("hello");
      assertThat(old.header("connection")).isEqualTo("close");
      assertThat(c.closedByServer(30_000)).as("closed after the answer that said so").isTrue();
    }
  }

  @Test
  void offByDefault() throws Exception {
    Files.writeString(root.resolve("a.txt"), "hello");
    ServiceRuntime runtime = runtimes.start(new StaticService(), TestServers.flags(root, "--engine", engine()));
    try (HttpWire c = new HttpWire(runtime.port())) {
      c.send(KEEP_ALIVE_GET).read(false);
      Thread.sleep(500);
      HttpWire.Response later = c.send(KEEP_ALIVE_GET).read(false);
      assertThat(later.header("connection")).isNull();
      assertThat(c.closedByServer(100)).isFalse();
    }
  }

  @Test
  void marksOnlyRequestsAfterTheLifetime() {
    EmbeddedChannel young = new EmbeddedChannel(new ConnectionAgeLimit(60_000_000_000L));
    young.writeInbound(request());
    HttpRequest passed = young.readInbound();
    assertThat(passed.headers().contains(HttpHeaderNames.CONNECTION)).isFalse();

    EmbeddedChannel old = new EmbeddedChannel(new ConnectionAgeLimit(0));
    old.writeInbound(request());
    passed = old.readInbound();
    assertThat(passed.headers().get(HttpHeaderNames.CONNECTION)).isEqualTo("close");
  }

  private static HttpRequest request() {
    HttpRequest r = new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, "/a.txt");
    r.headers().set(HttpHeaderNames.HOST, "t");
    return r;
  }
}
