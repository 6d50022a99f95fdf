package io.portshare.statics;

import io.portshare.web.internal.DirectoryListing;
import io.portshare.web.internal.FileCache;
import io.portshare.web.internal.Precondition;
import io.portshare.web.internal.RequestRouter;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.DefaultFileRegion;
import io.netty.channel.embedded.EmbeddedChannel;
import io.portshare.runtime.DrainEvent;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One connection's exchanges, on the server's pipeline over an embedded channel: framing, keep-alive, drain. */
class FileExchangeTest {

  @TempDir
  Path root;
  private final StaticMetrics metrics = new StaticMetrics();
  private EmbeddedChannel channel;

  @BeforeEach
  void connect() throws IOException {
    Files.writeString(root.resolve("a.txt"), "hello");
    Files.write(root.resolve("big.bin"), new byte[5000]);
    Files.createDirectories(root.resolve("dir"));
    Files.writeString(root.resolve("dir/<b>&.txt"), "x");
    Files.writeString(root.resolve("dir/.hidden"), "x");
    Path real = root.toRealPath();
    FileAnswers answers = new FileAnswers(new RequestRouter(new FileCache(real, 1024, 1 << 20), true),
        new DirectoryListing(real), true, "public, max-age=60", () -> metrics);
    OpenConnections connections = new OpenConnections(new OpenConnections.Limits(4096, 8192, 10_000, 75_000),
        answers, () -> metrics);
    channel = new EmbeddedChannel();
    connections.add(channel, 0);
  }

  @AfterEach
  void close() {
    channel.finishAndReleaseAll();
  }

  /**
   * What went out, in order: the bytes as text, a file region as [file offset+count]; not the empty
   * mark written behind each answer to time it (see {@code AnswerTimer}), which carries no bytes.
   */
  private List<String> send(String text) {
    channel.writeInbound(Unpooled.copiedBuffer(text, StandardCharsets.ISO_8859_1));
    return written();
  }

  private List<String> written() {
    List<String> out = new ArrayList<>();
    for (Object m; (m = channel.readOutbound()) != null; ) {
      if (m instanceof ByteBuf b) {
        if (!b.isReadable()) {
          continue;
        }
        out.add(b.toString(StandardCharsets.ISO_8859_1));
        b.release();
      } else if (m instanceof DefaultFileRegion r) {
        out.add("[file " + r.position() + "+" + r.count() + "]");
        r.release();
      }
    }
    return out;
  }

  private static String all(List<String> parts) {
    return String.join("", parts);
  }

  @Test
  void aKeepAliveAnswerIsHeadAndBodyWithPreEncodedFields() {
    List<String> out = send("GET /a.txt HTTP/1.1\r\nHost: t\r\n\r\n");

    assertThat(out).hasSize(2);
    assertThat(out.get(0)).startsWith("HTTP/1.1 200 OK\r\nserver: portshare\r\ndate: ")
        .contains("\r\ncontent-type: text/plain; charset=utf-8\r\n", "\r\netag: \"", "\r\nlast-modified: ",
            "\r\naccept-ranges: bytes\r\n", "\r\ncache-control: public, max-age=60\r\n", "\r\ncontent-length: 5\r\n")
        .doesNotContain("connection").endsWith("\r\n\r\n");
    assertThat(out.get(1)).isEqualTo("hello");
    assertThat(channel.isOpen()).isTrue();
    assertThat(metrics.success).isEqualTo(1);
    assertThat(metrics.copiedBytes).isEqualTo(5);
  }

  @Test
  void aLargerBodyGoesAsAFileRegion() {
    List<String> out = send("GET /big.bin HTTP/1.1\r\nHost: t\r\n\r\n");

    assertThat(out.get(0)).contains("\r\ncontent-length: 5000\r\n");
    assertThat(out.get(1)).isEqualTo("[file 0+5000]");
    assertThat(all(send("GET /big.bin HTTP/1.1\r\nHost: t\r\nRange: bytes=10-19\r\n\r\n")))
        .startsWith("HTTP/1.1 206 Partial Content\r\n").contains("content-range: bytes 10-19/5000\r\n")
        .endsWith("[file 10+10]");
    assertThat(metrics.sendfileBytes).isEqualTo(5010);
  }

  @Test
  void eachAnswerIsTimedOnceItHasGoneOutFromMemoryOrByFileRegion() {
    channel.writeInbound(Unpooled.copiedBuffer("GET /a.txt HTTP/1.1\r\nHost: t\r\n\r\n"
        + "GET /big.bin HTTP/1.1\r\nHost: t\r\n\r\nGET /nothing HTTP/1.1\r\nHost: t\r\n\r\n",
        StandardCharsets.ISO_8859_1));

    assertThat(written()).hasSize(5);
    assertThat(metrics.answerSeconds.count()).isEqualTo(3);
  }

  @Test
  void http11CloseAndHttp10CloseAfterTheAnswer() {
    assertThat(all(send("GET /a.txt HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")))
        .contains("\r\nconnection: close\r\n").endsWith("hello");
    assertThat(channel.isOpen()).isFalse();
  }

  @Test
  void http10IsAnsweredInHttp10AndClosedUnlessItAsksForKeepAlive() {
    assertThat(all(send("GET /a.txt HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")))
        .startsWith("HTTP/1.0 200 OK\r\n").contains("\r\nconnection: keep-alive\r\n");
    assertThat(channel.isOpen()).isTrue();
    assertThat(all(send("GET /a.txt HTTP/1.0\r\n\r\n"))).startsWith("HTTP/1.0 200 OK\r\n")
        .contains("\r\nconnection: close\r\n");
    assertThat(channel.isOpen()).isFalse();
  }

  @Test
  void pipelinedRequestsAreAnsweredInOrderAndNothingAfterTheLast() {
    String out = all(send("GET /a.txt HTTP/1.1\r\nHost: t\r\n\r\nHEAD /a.txt HTTP/1.1\r\nHost: t\r\n\r\n"
        + "GET /missing HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\nGET /a.txt HTTP/1.1\r\nHost: t\r\n\r\n"));

    assertThat(out.split("HTTP/1\\.1 ")).extracting(s -> s.isEmpty() ? "" : s.substring(0, 3))
        .containsExactly("", "200", "200", "404");
    assertThat(out).endsWith("Not Found\n");
    assertThat(out.indexOf("hello")).isEqualTo(out.lastIndexOf("hello")).as("the HEAD had no body");
    assertThat(channel.isOpen()).isFalse();
  }

  @Test
  void aRequestBodyIsReadAndDropped() {
    String out = all(send("POST /a.txt HTTP/1.1\r\nHost: t\r\nContent-Length: 4\r\n\r\nbodyGET /a.txt HTTP/1.1\r\nHost: t\r\n\r\n"));

    assertThat(out).startsWith("HTTP/1.1 405 Method Not Allowed\r\n").contains("\r\nallow: GET, HEAD\r\n")
        .contains("HTTP/1.1 200 OK\r\n").endsWith("hello");
  }

  @Test
  void conditionalsAndErrors() {
    String etag = all(send("HEAD /a.txt HTTP/1.1\r\nHost: t\r\n\r\n")).replaceAll("(?s).*\r\netag: (\"[^\"]+\").*", "$1");
    assertThat(all(send("GET /a.txt HTTP/1.1\r\nHost: t\r\nIf-None-Match: " + etag + "\r\n\r\n")))
        .startsWith("HTTP/1.1 304 Not Modified\r\n").doesNotContain("content-length").endsWith("\r\n\r\n");
    assertThat(all(send("GET /a.txt HTTP/1.1\r\nHost: t\r\nIf-Unmodified-Since: Thu, 01 Jan 1998 00:00:00 GMT\r\n\r\n")))
        .startsWith("HTTP/1.1 412 Precondition Failed\r\n").contains("\r\ncontent-length: 0\r\n");
    assertThat(all(send("GET /a.txt HTTP/1.1\r\nHost: t\r\nRange: bytes=9-\r\n\r\n")))
        .startsWith("HTTP/1.1 416 Requested Range Not Satisfiable\r\n").contains("\r\ncontent-range: bytes */5\r\n");
    assertThat(all(send("GET /dir?x=1 HTTP/1.1\r\nHost: t\r\n\r\n")))
        .startsWith("HTTP/1.1 301 Moved Permanently\r\n").contains("\r\nlocation: /dir/?x=1\r\n");
    assertThat(all(send("GET /a%zz HTTP/1.1\r\nHost: t\r\n\r\n"))).startsWith("HTTP/1.1 400 Bad Request\r\n");
    assertThat(all(send("HEAD /missing HTTP/1.1\r\nHost: t\r\n\r\n"))).startsWith("HTTP/1.1 404 Not Found\r\n")
        .contains("\r\ncontent-length: 10\r\n").endsWith("\r\n\r\n");
    assertThat(channel.isOpen()).isTrue();
  }

  @Test
  void aListingShowsNamesEscapedAndNoHiddenOnes() {
    String out = all(send("GET /dir/ HTTP/1.1\r\nHost: t\r\n\r\n"));

    assertThat(out).startsWith("HTTP/1.1 200 OK\r\n").contains("content-type: text/html; charset=utf-8\r\n")
        .contains("<a href=\"%3Cb%3E%26.txt\">&lt;b&gt;&amp;.txt</a>").doesNotContain(".hidden");
  }

  @Test
  void drainClosesAnIdleConnectionAtOnce() {
    send("GET /a.txt HTTP/1.1\r\nHost: t\r\n\r\n");

    channel.pipeline().fireUserEventTriggered(DrainEvent.INSTANCE);

    assertThat(channel.isOpen()).isFalse();
  }

  @Test
  void drainLetsARequestArrivingFinishWithClose() {
    send("GET /a.txt HTTP/1.1\r\nHo");

    channel.pipeline().fireUserEventTriggered(DrainEvent.INSTANCE);
    assertThat(channel.isOpen()).as("a head is arriving").isTrue();

    assertThat(all(send("st: t\r\n\r\n"))).contains("\r\nconnection: close\r\n").endsWith("hello");
    assertThat(channel.isOpen()).isFalse();
  }

  @Test
  void drainClosesOnceTheBodyOfARequestAnsweredIsRead() {
    send("POST /a.txt HTTP/1.1\r\nHost: t\r\nContent-Length: 4\r\n\r\nbo");

    channel.pipeline().fireUserEventTriggered(DrainEvent.INSTANCE);
    assertThat(channel.isOpen()).isTrue();

    send("dy");
    assertThat(channel.isOpen()).isFalse();
  }
}
