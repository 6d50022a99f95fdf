package io.portshare.statics;

import static org.assertj.core.api.Assertions.assertThat;

import io.portshare.runtime.Runtimes;
import io.portshare.runtime.impl.ServiceRuntime;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A refused request whose client is still sending, on a real socket: the refusal must arrive whole,
 * then FIN, with the client's bytes read and dropped while it goes on sending. A server that closed
 * at once, its receive queue holding the client's unread bytes, would make the kernel send RST: the
 * client then reads "connection reset" instead of the end of the answer, and its writes fail (checked
 * by replacing {@code LingeringClose.after} in {@code HeadGuard.reject} with a write and close).
 */
class LingeringRefusalTest {

  @TempDir
  static Path root;
  @RegisterExtension
  static final Runtimes runtimes = new Runtimes();
  static ServiceRuntime rt;

  @BeforeAll
  static void start() throws IOException {
    Files.writeString(root.resolve("hello.txt"), "hello\n");
    rt = runtimes.start(new StaticService(), TestServers.flags(root));
  }

  @Test
  void aRefusalArrivesWholeThenFinWhileTheClientGoesOnSending() throws Exception {
    byte[] junk = new byte[16 << 10];
    Arrays.fill(junk, (byte) 'x');
    try (Socket client = new Socket()) {
      client.setSoTimeout(10_000);
      client.connect(new InetSocketAddress("127.0.0.1", rt.port()), 10_000);
      OutputStream out = client.getOutputStream();
      out.write("GET /hello.txt HTTP/1.1\r\nHost: a b\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      out.write(junk);
      // Sending on for half a second, well inside the server's linger (2 s): every write must succeed.
      CompletableFuture<Long> sent = CompletableFuture.supplyAsync(() -> {
        long bytes = 0;
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(500);
        try {
          while (System.nanoTime() < end) {
            out.write(junk);
            bytes += junk.length;
          }
          client.shutdownOutput();
        } catch (IOException e) {
          throw new IllegalStateException("a write failed after " + bytes + " bytes: " + e.getMessage(), e);
        }
        return bytes;
      });

      ByteArrayOutputStream answer = new ByteArrayOutputStream();
      InputStream in = client.getInputStream();
      byte[] buf = new byte[4096];
      for (int n; (n = in.read(buf)) >= 0; ) { // a reset throws here instead of ending the stream
        answer.write(buf, 0, n);
      }

      assertThat(answer.toString(StandardCharsets.US_ASCII)).startsWith("HTTP/1.1 400 Bad Request\r\n")
          .contains("connection: close\r\n").endsWith("\r\n\r\n");
      assertThat(sent.get(10, TimeUnit.SECONDS)).as("bytes sent after the refusal, none refused").isPositive();
    }
  }
}
