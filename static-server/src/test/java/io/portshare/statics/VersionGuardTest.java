package io.portshare.statics;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseEncoder;
import io.netty.util.ReferenceCountUtil;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.impl.VertxHttpRequestDecoder;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Requests of another version than HTTP/1.0 and 1.1 are answered in HTTP/1.1 and closed. Behind
 * Vert.x's own request decoder, as in the server: it lets any version token through.
 */
class VersionGuardTest {

  private final StaticMetrics metrics = new StaticMetrics(new SimpleMeterRegistry(), "0");
  private final EmbeddedChannel channel =
      new EmbeddedChannel(new HttpResponseEncoder(), new VertxHttpRequestDecoder(new HttpServerOptions()),
          new VersionGuard(metrics));

  @AfterEach
  void close() {
    channel.finishAndReleaseAll();
  }

  private void send(String text) {
    channel.writeInbound(Unpooled.copiedBuffer(text, StandardCharsets.ISO_8859_1));
  }

  private String answer() {
    StringBuilder sb = new StringBuilder();
    for (ByteBuf b; (b = channel.readOutbound()) != null; ) {
      sb.append(b.toString(StandardCharsets.ISO_8859_1));
      b.release();
    }
    return sb.toString();
  }

  @Test
  void http11AndHttp10PassThrough() {
    send("GET /a HTTP/1.1\r\nHost: a\r\n\r\nGET /b HTTP/1.0\r\n\r\n");

    Object a = channel.readInbound();
    channel.readInbound(); // the empty last content of /a
    Object b = channel.readInbound();
    assertThat(((HttpRequest) a).uri()).isEqualTo("/a");
    assertThat(((HttpRequest) b).uri()).isEqualTo("/b");
    ReferenceCountUtil.release(a);
    ReferenceCountUtil.release(b);
    assertThat(answer()).isEmpty();
    assertThat(channel.isOpen()).isTrue();
    assertThat(metrics.badVersions).isZero();
  }

  @Test
  void anotherHttpVersionGets505InHttp11AndAClose() {
    send("GET / HTTP/2.0\r\nHost: a\r\n\r\n");

    assertThat(answer()).startsWith("HTTP/1.1 505 HTTP Version Not Supported\r\n")
        .contains("content-length: 0\r\n", "connection: close\r\n");
    assertThat(channel.isOpen()).isFalse();
    assertThat(metrics.badVersions).isEqualTo(1);
  }

  @Test
  void somethingThatIsNotHttpGets400AndWhatFollowsIsDropped() {
    send("GET / XTTP/1.1\r\n\r\nGET /next HTTP/1.1\r\n\r\n");

    assertThat(answer()).startsWith("HTTP/1.1 400 Bad Request\r\n");
    assertThat((Object) channel.readInbound()).as("nothing reaches the handler after a refused head").isNull();
    assertThat(channel.isOpen()).isFalse();
  }
}
