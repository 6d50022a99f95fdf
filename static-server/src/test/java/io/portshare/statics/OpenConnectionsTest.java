package io.portshare.statics;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpRequestDecoder;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Each connection's handlers and the sweep of slow heads, on pipelines shaped like Vert.x's. */
class OpenConnectionsTest {

  private static final long TIMEOUT_MILLIS = 1000;

  private final StaticMetrics metrics = new StaticMetrics();
  private final OpenConnections connections = new OpenConnections(TIMEOUT_MILLIS, metrics);
  private final List<EmbeddedChannel> channels = new ArrayList<>();

  @AfterEach
  void close() {
    channels.forEach(EmbeddedChannel::finishAndReleaseAll);
  }

  /** A connection as Vert.x makes one: its decoder, then "handler"; added with {@code lifetimeNanos}. */
  private EmbeddedChannel connect(long lifetimeNanos) {
    EmbeddedChannel ch = new EmbeddedChannel();
    ch.pipeline().addLast("decoder", new HttpRequestDecoder());
    ch.pipeline().addLast("handler", new ChannelInboundHandlerAdapter());
    connections.add(ch.pipeline(), lifetimeNanos);
    channels.add(ch);
    return ch;
  }

  private static List<Object> send(EmbeddedChannel ch, String text) {
    ch.writeInbound(Unpooled.copiedBuffer(text, StandardCharsets.ISO_8859_1));
    List<Object> out = new ArrayList<>();
    for (Object m; (m = ch.readInbound()) != null; ) {
      out.add(m);
    }
    return out;
  }

  @Test
  void theSweepClosesOnlyAConnectionWhoseHeadIsOverdue() {
    EmbeddedChannel slow = connect(0);
    EmbeddedChannel idle = connect(0);
    EmbeddedChannel served = connect(0);
    long before = System.currentTimeMillis();
    send(slow, "GET /a HTTP/1.1\r\nHo");
    send(served, "GET /a HTTP/1.1\r\nHost: a\r\n\r\n").forEach(ReferenceCountUtil::release);

    connections.sweep(before + TIMEOUT_MILLIS);
    assertThat(slow.isOpen()).as("within the timeout").isTrue();

    connections.sweep(System.currentTimeMillis() + TIMEOUT_MILLIS + 1);
    assertThat(slow.isOpen()).isFalse();
    assertThat(idle.isOpen()).as("no head begun").isTrue();
    assertThat(served.isOpen()).as("head complete").isTrue();
    assertThat(metrics.headerTimeouts).isEqualTo(1);
    assertThat(connections.size()).isEqualTo(2);
  }

  @Test
  void aClosedConnectionLeavesTheSet() {
    EmbeddedChannel a = connect(0);
    connect(0);
    assertThat(connections.size()).isEqualTo(2);

    a.close();

    assertThat(connections.size()).isEqualTo(1);
  }

  @Test
  void aBadHeadIsRefusedBeforeVertxSeesIt() {
    EmbeddedChannel ch = connect(0);

    List<Object> passed = send(ch, "GET /a HTTP/1.1\r\n\r\n");

    assertThat(passed).as("an HTTP/1.1 head without Host goes no further").isEmpty();
    HttpResponse answer = ch.readOutbound();
    assertThat(answer.status().code()).isEqualTo(400);
    assertThat(answer.protocolVersion().text()).isEqualTo("HTTP/1.1");
    assertThat(answer.headers().get("Connection")).isEqualTo("close");
    ReferenceCountUtil.release(answer);
    assertThat(metrics.clientError).isEqualTo(1);
  }

  @Test
  void aConnectionPastItsLifetimeHasItsNextRequestMarkedToClose() {
    EmbeddedChannel aged = connect(1);
    EmbeddedChannel young = connect(0);

    List<Object> agedOut = send(aged, "GET /a HTTP/1.1\r\nHost: a\r\n\r\n");
    List<Object> youngOut = send(young, "GET /a HTTP/1.1\r\nHost: a\r\n\r\n");

    assertThat(((HttpRequest) agedOut.get(0)).headers().get("Connection")).isEqualTo("close");
    assertThat(((HttpRequest) youngOut.get(0)).headers().get("Connection")).isNull();
    agedOut.forEach(ReferenceCountUtil::release);
    youngOut.forEach(ReferenceCountUtil::release);
  }
}
