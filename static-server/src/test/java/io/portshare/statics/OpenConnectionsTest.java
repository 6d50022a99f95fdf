package io.portshare.statics;

import io.portshare.web.internal.FileCache;
import io.portshare.web.internal.RequestRouter;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.stream.ChunkedWriteHandler;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each connection's pipeline and the sweep's visit to slow heads and idle connections, on embedded channels. */
class OpenConnectionsTest {

  private static final long TIMEOUT_MILLIS = 1000;
  private static final long IDLE_MILLIS = 5000;

  @TempDir
  Path root;
  private final StaticMetrics metrics = new StaticMetrics();
  private final List<EmbeddedChannel> channels = new ArrayList<>();
  private OpenConnections connections;

  @AfterEach
  void close() {
    channels.forEach(EmbeddedChannel::finishAndReleaseAll);
  }

  private OpenConnections connections(boolean sendfile) throws IOException {
    Files.writeString(root.resolve("a"), "hello");
    FileAnswers answers = new FileAnswers(new RequestRouter(new FileCache(root.toRealPath(), 1024, 1 << 20), false),
        null, sendfile, "", () -> metrics);
    connections = new OpenConnections(new OpenConnections.Limits(4096, 8192, TIMEOUT_MILLIS, IDLE_MILLIS), answers,
        () -> metrics);
    return connections;
  }

  /** A new connection, its pipeline built with {@code lifetimeNanos}. */
  private EmbeddedChannel connect(long lifetimeNanos) throws IOException {
    if (connections == null) {
      connections(true);
    }
    EmbeddedChannel ch = new EmbeddedChannel();
    connections.add(ch, lifetimeNanos);
    channels.add(ch);
    return ch;
  }

  /** The runtime's sweep at {@code now}: a visit to each connection still open. */
  private void sweep(long now) {
    for (EmbeddedChannel ch : channels) {
      if (ch.isOpen()) {
        connections.visit(ch, now);
      }
    }
  }

  /** Sends the bytes; returns what was answered. */
  private static String exchange(EmbeddedChannel ch, String text) {
    ch.writeInbound(Unpooled.copiedBuffer(text, StandardCharsets.ISO_8859_1));
    StringBuilder out = new StringBuilder();
    for (Object m; (m = ch.readOutbound()) != null; ) {
      out.append(((ByteBuf) m).toString(StandardCharsets.ISO_8859_1));
      ((ByteBuf) m).release();
    }
    return out.toString();
  }

  @Test
  void thePipelineIsShort() throws IOException {
    assertThat(connect(0).pipeline().names()).startsWith("decoder", "guard", "exchange");
    assertThat(connect(1).pipeline().names()).startsWith("decoder", "guard", "age", "exchange");
    connections(false);
    assertThat(connect(0).pipeline().first()).isInstanceOf(ChunkedWriteHandler.class);
  }

  @Test
  void theSweepClosesOnlyAConnectionWhoseHeadIsOverdue() throws IOException {
    EmbeddedChannel slow = connect(0);
    EmbeddedChannel idle = connect(0);
    EmbeddedChannel served = connect(0);
    long before = System.currentTimeMillis();
    exchange(slow, "GET /a HTTP/1.1\r\nHo");
    assertThat(exchange(served, "GET /a HTTP/1.1\r\nHost: a\r\n\r\n")).startsWith("HTTP/1.1 200 OK\r\n");

    sweep(before + TIMEOUT_MILLIS);
    assertThat(slow.isOpen()).as("within the timeout").isTrue();

    sweep(System.currentTimeMillis() + TIMEOUT_MILLIS + 1);
    assertThat(slow.isOpen()).isFalse();
    assertThat(idle.isOpen()).as("no head begun").isTrue();
    assertThat(served.isOpen()).as("head complete").isTrue();
    assertThat(metrics.headerTimeouts).isEqualTo(1);
  }

  @Test
  void theSweepClosesConnectionsIdleForTheIdleTimeout() throws IOException {
    EmbeddedChannel idle = connect(0);
    EmbeddedChannel busy = connect(0);
    long start = System.currentTimeMillis();

    sweep(start + IDLE_MILLIS - 100);
    assertThat(idle.isOpen()).isTrue();

    exchange(busy, "GET /a HTTP/1.1\r\nHost: a\r\n\r\n");
    busy.pipeline().get(RequestDecoder.class).lastReadAt = start + IDLE_MILLIS;
    sweep(start + IDLE_MILLIS + 200);
    assertThat(idle.isOpen()).as("idle past the timeout").isFalse();
    assertThat(busy.isOpen()).as("read since").isTrue();
    assertThat(metrics.headerTimeouts).as("an idle close is no header timeout").isZero();
  }

  @Test
  void aBadHeadIsRefusedBeforeItIsAnswered() throws IOException {
    EmbeddedChannel ch = connect(0);

    String answer = exchange(ch, "GET /a HTTP/1.1\r\n\r\n");

    assertThat(answer).isEqualTo("HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\nconnection: close\r\n\r\n");
    assertThat(metrics.clientError).isEqualTo(1);
    assertThat(metrics.success).isZero();
  }

  @Test
  void aConnectionPastItsLifetimeHasItsNextAnswerSayClose() throws IOException {
    EmbeddedChannel aged = connect(1);
    EmbeddedChannel young = connect(0);

    assertThat(exchange(aged, "GET /a HTTP/1.1\r\nHost: a\r\n\r\n")).contains("\r\nconnection: close\r\n");
    assertThat(exchange(young, "GET /a HTTP/1.1\r\nHost: a\r\n\r\n")).doesNotContain("connection:");
    assertThat(aged.isOpen()).isFalse();
    assertThat(young.isOpen()).isTrue();
  }
}
