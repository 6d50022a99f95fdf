package io.portshare.statics;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The request heads HeadGuard refuses, on a pipeline shaped like the server's with its default
 * limits (--max-uri 4 KiB, --max-header-size 8 KiB): the request decoder, the guard, then the
 * handler that answers.
 */
class HeadGuardTest {

  private final StaticMetrics metrics = new StaticMetrics();
  private final EmbeddedChannel channel = new EmbeddedChannel();

  HeadGuardTest() {
    channel.pipeline().addLast("decoder", new RequestDecoder(channel, RequestDecoder.config(4096, 8192)));
    channel.pipeline().addLast(new HeadGuard(metrics));
    channel.pipeline().addLast("handler", new ChannelInboundHandlerAdapter());
  }

  @AfterEach
  void close() {
    channel.finishAndReleaseAll();
  }

  /** What reached the handler that answers. */
  private List<Object> send(String text) {
    channel.writeInbound(Unpooled.copiedBuffer(text, StandardCharsets.ISO_8859_1));
    List<Object> passed = new ArrayList<>();
    for (Object m; (m = channel.readInbound()) != null; ) {
      passed.add(m);
    }
    return passed;
  }

  private static void release(List<Object> messages) {
    messages.forEach(ReferenceCountUtil::release);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {
      "GET / HTTP/1.1\r\nHost: a\r\n\r\n",
      "GET / HTTP/1.1\r\nHost: example.com:8080\r\n\r\n",
      "GET / HTTP/1.1\r\nHost: [::1]:80\r\n\r\n",
      "GET / HTTP/1.1\r\nHost:\r\n\r\n",
      "GET / HTTP/1.0\r\n\r\n",
      "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n",
      "POST / HTTP/1.0\r\nContent-Length: 2\r\n\r\nab",
      "GET / HTTP/1.1\r\nHost: a\r\nX: tab\there and \u00e9\r\n\r\n"})
  void aWellFormedHeadGoesOn(String request) {
    List<Object> passed = send(request);

    assertThat(passed).first().isInstanceOf(HttpRequest.class);
    assertThat((Object) channel.readOutbound()).as("nothing answered").isNull();
    assertThat(channel.isOpen()).isTrue();
    release(passed);
  }

  @ParameterizedTest(name = "{1}: {0}")
  @CsvSource(delimiter = '|', value = {
      "GET / HTTP/2.0\\r\\nHost: a\\r\\n\\r\\n|505",
      "GET / HTTP/1.2\\r\\nHost: a\\r\\n\\r\\n|505",
      "GET / XTTP/1.1\\r\\nHost: a\\r\\n\\r\\n|400",
      "GET / http/1.1\\r\\nHost: a\\r\\n\\r\\n|400",
      "GET / HTTP/1.1\\r\\n\\r\\n|400",
      "GET / HTTP/1.1\\r\\nHost: a\\r\\nHost: b\\r\\n\\r\\n|400",
      "GET / HTTP/1.1\\r\\nHost: a b\\r\\n\\r\\n|400",
      "GET / HTTP/1.1\\r\\nHost: a/b\\r\\n\\r\\n|400",
      "POST / HTTP/1.1\\r\\nHost: a\\r\\nTransfer-Encoding: chunked, gzip\\r\\n\\r\\n|400",
      "POST / HTTP/1.0\\r\\nContent-Length: 1x\\r\\n\\r\\n|400",
      "POST / HTTP/1.0\\r\\nContent-Length: 1\\r\\nContent-Length: 2\\r\\n\\r\\nab|400",
      "GET / HTTP/1.0\\r\\nContent-Length: 0\\r\\nContent-Length: 0\\r\\n\\r\\n|400",
      "POST / HTTP/1.1\\r\\nHost: a\\r\\nContent-Length: 2\\r\\nContent-Length: 1\\r\\n\\r\\nab|400",
      "GET / HTTP/1.1\\r\\nHost: a\\r\\nX: a\\u0001b\\r\\n\\r\\n|400"})
  void aBadHeadIsAnsweredInHttp11AndClosed(String escaped, int status) {
    String request = escaped.replace("\\r", "\r").replace("\\n", "\n").replace("\\u0001", "\u0001");

    List<Object> passed = send(request);

    assertThat(passed).as("nothing goes on").isEmpty();
    assertAnswered(status);
  }

  @Test
  void eachHeadCountsItsOwnContentLength() {
    List<Object> passed = send("POST / HTTP/1.0\r\nContent-Length: 1\r\n\r\nx"
        + "POST / HTTP/1.0\r\nContent-Length: 1\r\n\r\ny");

    assertThat(passed).filteredOn(HttpRequest.class::isInstance).hasSize(2);
    assertThat((Object) channel.readOutbound()).as("nothing answered").isNull();
    release(passed);
  }

  @Test
  void aRequestLineOverMaxUriIs414() {
    assertThat(send("GET /" + "x".repeat(5000) + " HTTP/1.1\r\nHost: a\r\n\r\n")).isEmpty();
    assertAnswered(414);
  }

  @Test
  void aHeadOverMaxHeaderSizeIs431() {
    assertThat(send("GET / HTTP/1.1\r\nHost: a\r\nX: " + "y".repeat(9000) + "\r\n\r\n")).isEmpty();
    assertAnswered(431);
  }

  @Test
  void aRequestBehindARefusedOneGoesNoFurther() {
    List<Object> passed = send("GET / HTTP/3.0\r\nHost: a\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n");

    assertThat(passed).isEmpty();
    assertAnswered(505);
  }

  @Test
  void aBadChunkAfterAGoodHeadFlushesWhatIsWrittenThenCloses() {
    List<Object> passed = send("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n");

    assertThat(passed).first().isInstanceOf(HttpRequest.class);
    assertThat(channel.config().isAutoRead()).as("reads no more").isFalse();
    channel.runPendingTasks();
    assertThat(channel.isOpen()).isFalse();
    release(passed);
  }

  @ParameterizedTest(name = "[{0}]")
  @ValueSource(strings = {"a", "example.com:8080", "[::1]:80", "", "a:", "xn--bcher-kva.example", "1.2.3.4:443",
      "a%20b", "[v6.addr]"})
  void hostsThatAreHosts(String host) {
    assertThat(HeadGuard.host(host)).isEqualTo(!host.equals("[v6.addr]"));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"a b", "a/b", "[::1", "[]", "a:8x", "[::1]x", "a@b", "a\u0000"})
  void hostsThatAreNot(String host) {
    assertThat(HeadGuard.host(host.replace("\\u0000", "\u0000"))).isFalse();
  }

  @Test
  void theLastCodingDecides() {
    assertThat(HeadGuard.lastCodingIsChunked("chunked")).isTrue();
    assertThat(HeadGuard.lastCodingIsChunked("gzip, Chunked ")).isTrue();
    assertThat(HeadGuard.lastCodingIsChunked("gzip,chunked")).isTrue();
    assertThat(HeadGuard.lastCodingIsChunked("chunked, gzip")).isFalse();
    assertThat(HeadGuard.lastCodingIsChunked("xchunked")).isFalse();
    assertThat(HeadGuard.lastCodingIsChunked("")).isFalse();
    assertThat(HeadGuard.lastCodingIsChunked("chunked,")).isFalse();
  }

  @Test
  void versionsFieldValuesAndLengthsByTheirBytes() {
    assertThat(HeadGuard.httpVersion("HTTP/2.0")).isTrue();
    assertThat(HeadGuard.httpVersion("HTTP/01.1")).isFalse();
    assertThat(HeadGuard.httpVersion("HTTP/1")).isFalse();
    assertThat(HeadGuard.fieldValue("tab\there \u00e9 ~")).isTrue();
    assertThat(HeadGuard.fieldValue("a\u007fb")).isFalse();
    assertThat(HeadGuard.fieldValue("a\rb")).isFalse();
    assertThat(HeadGuard.length("0")).isTrue();
    assertThat(HeadGuard.length("9".repeat(18))).isTrue();
    assertThat(HeadGuard.length("9".repeat(19))).isFalse();
    assertThat(HeadGuard.length("")).isFalse();
    assertThat(HeadGuard.length(" 1")).isFalse();
  }

  @Test
  void onlyAVersionRefusalCountsAsABadVersion() {
    send("GET / HTTP/1.1\r\n\r\n");
    assertThat(metrics.badVersions).isZero();
    assertThat(metrics.clientError).isEqualTo(1);
  }

  private void assertAnswered(int status) {
    ByteBuf answer = channel.readOutbound();
    assertThat(answer.toString(StandardCharsets.US_ASCII)).matches("HTTP/1\\.1 " + status
        + " [A-Za-z -]+\r\ncontent-length: 0\r\nconnection: close\r\n\r\n");
    answer.release();
    assertThat(channel.isOpen()).as("closed after the answer").isFalse();
    if (status == 505) {
      assertThat(metrics.badVersions).isEqualTo(1);
      assertThat(metrics.serverError).isEqualTo(1);
    } else {
      assertThat(metrics.clientError).isEqualTo(1);
    }
  }
}
