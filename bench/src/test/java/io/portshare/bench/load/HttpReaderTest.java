package io.portshare.bench.load;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.portshare.bench.cpu.CpuProbe;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The HTTP reply reader, table-driven over answers in every split, and the HTTP open loop on real sockets. */
class HttpReaderTest {

  private record Case(String name, String reply, boolean complete, ErrorKind error) {}

  private static final List<Case> CASES = List.of(
      new Case("200 with the file's length", "HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nabcd", true, null),
      new Case("header name in any case", "HTTP/1.1 200 OK\r\ncontent-LENGTH:4\r\n\r\nabcd", true, null),
      new Case("204 is a 2xx", "HTTP/1.1 206 Partial\r\nContent-Length: 4\r\n\r\nabcd", true, null),
      new Case("404", "HTTP/1.1 404 Not Found\r\nContent-Length: 4\r\n\r\nabcd", false, ErrorKind.STATUS),
      new Case("503", "HTTP/1.1 503 Busy\r\nContent-Length: 0\r\n\r\n", false, ErrorKind.STATUS),
      new Case("another length", "HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabc", false, ErrorKind.SHORT_BODY),
      new Case("no length (chunked)", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nabcd\r\n0\r\n\r\n", false,
          ErrorKind.OTHER),
      new Case("head not finished", "HTTP/1.1 200 OK\r\nContent-Length: 4\r\n", false, null),
      new Case("body not finished", "HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nab", false, null));

  @Test
  void everyAnswerIsJudgedTheSameWhateverItsSplit() {
    for (Case c : CASES) {
      byte[] bytes = c.reply().getBytes(StandardCharsets.US_ASCII);
      for (int chunk = 1; chunk <= bytes.length; chunk++) {
        HttpReader reader = new HttpReader(4);
        boolean complete = false;
        ErrorKind error = null;
        for (int at = 0; at < bytes.length && error == null && !complete; ) {
          ByteBuf buf = Unpooled.wrappedBuffer(bytes, at, Math.min(chunk, bytes.length - at));
          int index = buf.readerIndex();
          while (index < buf.writerIndex() && reader.error == null && !reader.complete) {
            index += reader.read(buf, index, buf.writerIndex());
          }
          complete = reader.complete;
          error = reader.error;
          at += index - buf.readerIndex();
        }
        assertThat(complete).as("%s in chunks of %d", c.name(), chunk).isEqualTo(c.complete());
        assertThat(error).as("%s in chunks of %d", c.name(), chunk).isEqualTo(c.error());
      }
    }
  }

  @Test
  void aBodyCutShortByACloseIsAShortBody() {
    HttpReader reader = new HttpReader(4);
    byte[] bytes = "HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nab".getBytes(StandardCharsets.US_ASCII);
    ByteBuf buf = Unpooled.wrappedBuffer(bytes);
    int index = 0;
    while (index < bytes.length) {
      index += reader.read(buf, index, bytes.length);
    }
    assertThat(reader.cutShort()).isEqualTo(ErrorKind.SHORT_BODY);
    reader.reset();
    assertThat(reader.cutShort()).isEqualTo(ErrorKind.CLOSED);
  }

  @Test
  void keepAliveReusesConnectionsAndCloseOpensOnePerRequest() throws Exception {
    for (boolean close : new boolean[] {false, true}) {
      try (TimedServer server = TimedServer.httpStallingOnce(Long.MAX_VALUE, 0, 1024)) {
        LoadSpec spec = new LoadSpec("127.0.0.1", server.port(), 4, close ? 1 : 1_000_000, 0, Duration.ofMillis(200),
            Duration.ofSeconds(1), 200, 1, Duration.ofSeconds(5));
        Measurement m = LoadGenerator.run(spec, Wire.http("127.0.0.1", "/1k.bin", close, 1024), Progress.none(),
            CpuProbe.UNKNOWN).measurement();
        assertThat(m.errors()).as("close=%s", close).isEmpty();
        assertThat(m.operations()).as("close=%s", close).isEqualTo(200);
        if (close) {
          assertThat(server.connections()).isGreaterThanOrEqualTo(m.operations());
        } else {
          assertThat(server.connections()).isEqualTo(4);
        }
      }
    }
  }
}
