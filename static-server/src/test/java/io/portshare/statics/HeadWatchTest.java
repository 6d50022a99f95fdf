package io.portshare.statics;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpRequestDecoder;
import io.netty.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The request-head clock, in a pipeline shaped like Vert.x's: a decoder, then "handler". */
class HeadWatchTest {

  private final EmbeddedChannel channel = new EmbeddedChannel();
  private HeadWatch watch;

  HeadWatchTest() {
    channel.pipeline().addLast("decoder", new HttpRequestDecoder());
    channel.pipeline().addLast("handler", new ChannelInboundHandlerAdapter());
    watch = new HeadWatch(channel.pipeline());
  }

  @AfterEach
  void close() {
    channel.finishAndReleaseAll();
  }

  private void send(String text) {
    channel.writeInbound(Unpooled.copiedBuffer(text, StandardCharsets.ISO_8859_1));
    for (Object m; (m = channel.readInbound()) != null; ) {
      ReferenceCountUtil.release(m);
    }
  }

  @Test
  void anIdleConnectionHasNoClockRunning() {
    assertThat(watch.headStartedAt).isZero();
    assertThat(watch.overdue(System.currentTimeMillis() + 60_000, 1000)).isFalse();
  }

  @Test
  void theClockRunsFromTheFirstByteUntilTheHeadIsWhole() {
    long before = System.currentTimeMillis();
    send("GET /slow HT");
    long started = watch.headStartedAt;
    assertThat(started).isBetween(before, System.currentTimeMillis());

    send("TP/1.1\r\nHost: a\r\n");
    assertThat(watch.headStartedAt).as("later bytes do not restart the clock").isEqualTo(started);
    assertThat(watch.overdue(started + 999, 1000)).isFalse();
    assertThat(watch.overdue(started + 1001, 1000)).isTrue();

    send("\r\n");
    assertThat(watch.headStartedAt).isZero();
    assertThat(watch.overdue(started + 1_000_000, 1000)).isFalse();
  }

  @Test
  void eachKeepAliveRequestStartsItsOwnClock() {
    send("GET /a HTTP/1.1\r\nHost: a\r\n\r\n");
    assertThat(watch.headStartedAt).isZero();

    send("GET /b HTTP/1.1\r\n");
    assertThat(watch.headStartedAt).isPositive();
  }

  @Test
  void theDecodedRequestStillReachesTheHandler() {
    EmbeddedChannel plain = new EmbeddedChannel();
    plain.pipeline().addLast("decoder", new HttpRequestDecoder());
    plain.pipeline().addLast("handler", new ChannelInboundHandlerAdapter());
    new HeadWatch(plain.pipeline());

    plain.writeInbound(Unpooled.copiedBuffer("GET /x HTTP/1.1\r\n\r\n", StandardCharsets.ISO_8859_1));

    Object first = plain.readInbound();
    assertThat(first).isInstanceOf(HttpRequest.class);
    assertThat(((HttpRequest) first).uri()).isEqualTo("/x");
    ReferenceCountUtil.release(first);
    plain.finishAndReleaseAll();
  }
}
