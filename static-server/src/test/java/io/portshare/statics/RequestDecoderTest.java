package io.portshare.statics;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.netty.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The request decoder: its limits, its refusal of a second Content-Length, and its clocks. */
class RequestDecoderTest {

  private final EmbeddedChannel channel = new EmbeddedChannel();
  private final RequestDecoder decoder = new RequestDecoder(channel, RequestDecoder.config(4096, 8192));

  RequestDecoderTest() {
    channel.pipeline().addLast(decoder);
  }

  @AfterEach
  void close() {
    channel.finishAndReleaseAll();
  }

  /** The heads decoded from these bytes; the rest of what came out released. */
  private List<HttpRequest> send(String text) {
    channel.writeInbound(Unpooled.copiedBuffer(text, StandardCharsets.ISO_8859_1));
    List<HttpRequest> heads = new ArrayList<>();
    for (Object m; (m = channel.readInbound()) != null; ) {
      if (m instanceof HttpRequest req) {
        heads.add(req);
      }
      ReferenceCountUtil.release(m);
    }
    return heads;
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "POST / HTTP/1.0\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab",
      "GET / HTTP/1.0\r\ncontent-length: 0\r\nContent-Length: 0\r\n\r\n",
      "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab"})
  void aSecondContentLengthIsRefusedInHttp10AsNettyDoesIn11(String request) {
    List<HttpRequest> heads = send(request);
    assertThat(heads).hasSize(1);
    assertThat(heads.get(0).decoderResult().isFailure()).isTrue();
  }

  @Test
  void eachHeadCountsItsOwnContentLength() {
    List<HttpRequest> heads = send("POST / HTTP/1.0\r\nContent-Length: 1\r\n\r\nx"
        + "POST / HTTP/1.0\r\nContent-Length: 1\r\n\r\ny");
    assertThat(heads).hasSize(2).allMatch(h -> h.decoderResult().isSuccess());
  }

  @Test
  void aHeadTooBigIsTooBigFirstWhateverItsLengths() {
    List<HttpRequest> heads = send("GET / HTTP/1.0\r\nContent-Length: 0\r\nContent-Length: 5\r\nX: "
        + "x".repeat(9000) + "\r\n\r\n");
    assertThat(heads.get(0).decoderResult().cause()).isInstanceOf(TooLongHttpHeaderException.class);
  }

  @Test
  void aRequestLineOverMaxUriIsTooLong() {
    List<HttpRequest> heads = send("GET /" + "x".repeat(5000) + " HTTP/1.1\r\nHost: a\r\n\r\n");
    assertThat(heads.get(0).decoderResult().cause()).isInstanceOf(TooLongHttpLineException.class);
  }

  @Test
  void anIdleConnectionHasNoClockRunning() {
    assertThat(decoder.headStartedAt).isZero();
    assertThat(decoder.overdue(System.currentTimeMillis() + 60_000, 1000)).isFalse();
  }

  @Test
  void theClockRunsFromTheFirstByteUntilTheHeadIsWhole() {
    long before = System.currentTimeMillis();
    send("GET /slow HT");
    long started = decoder.headStartedAt;
    assertThat(started).isBetween(before, System.currentTimeMillis());

    send("TP/1.1\r\nHost: a\r\n");
    assertThat(decoder.headStartedAt).as("later bytes do not restart the clock").isEqualTo(started);
    assertThat(decoder.overdue(started + 999, 1000)).isFalse();
    assertThat(decoder.overdue(started + 1001, 1000)).isTrue();

    send("\r\n");
    assertThat(decoder.headStartedAt).isZero();
    assertThat(decoder.overdue(started + 1_000_000, 1000)).isFalse();
  }

  @Test
  void eachKeepAliveRequestStartsItsOwnClock() {
    send("GET /a HTTP/1.1\r\nHost: a\r\n\r\n");
    assertThat(decoder.headStartedAt).isZero();

    send("GET /b HTTP/1.1\r\n");
    assertThat(decoder.headStartedAt).isPositive();
  }

  @Test
  void aBodyStopsTheClockWhenItHasBeenRead() {
    send("POST /a HTTP/1.1\r\nHost: a\r\nContent-Length: 4\r\n\r\n");
    send("ab");
    assertThat(decoder.headStartedAt).as("a body arriving").isPositive();
    send("cd");
    assertThat(decoder.headStartedAt).isZero();
  }

  @Test
  void everyReadIsSeenByTheIdleClock() throws InterruptedException {
    long accepted = decoder.lastReadAt;
    assertThat(accepted).isPositive();
    Thread.sleep(5);
    send("GET /a HTTP/1.1\r\nHost: a\r\n\r\n");
    assertThat(decoder.lastReadAt).isGreaterThan(accepted);
  }
}
