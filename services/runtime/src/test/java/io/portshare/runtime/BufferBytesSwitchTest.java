package io.portshare.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.portshare.runtime.impl.ServiceRuntime;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code --channel} chooses how a service on Vert.x's API reaches the bytes of a Buffer
 * ({@link ServiceContext#bufferBytes}): on {@code netty} the stock path, a copy, so that the build's
 * second run of the suites serves without Vert.x's internal Buffer classes; on {@code lean} the
 * Buffer's own memory. The service here answers a connection's first read with what its decoder
 * would see: the read's own memory (a change to the Buffer shows in the ByteBuf) or a copy.
 */
class BufferBytesSwitchTest {

  private static final String CHANNEL_ENV = "PORTSHARE_CHANNEL";

  @RegisterExtension
  final Runtimes runtimes = new Runtimes();

  @Test
  void onNettysChannelsAServiceDecodesACopyOfEachRead() throws IOException {
    assertThat(firstAnswer("--channel", "netty")).isEqualTo("copy");
  }

  @Test
  void onTheLeanChannelsItDecodesTheReadsOwnMemory() throws IOException {
    assertThat(firstAnswer("--channel", "lean")).isEqualTo("view");
  }

  /** The build's second run of a suite sets PORTSHARE_CHANNEL=netty: the services it starts decode copies. */
  @Test
  void aSuiteRunOnTheChannelItsEnvironmentNamesDecodesAsThatChannelAsks() throws IOException {
    String expected = "netty".equals(System.getenv(CHANNEL_ENV)) ? "copy" : "view";
    assertThat(firstAnswer()).as("with %s=%s", CHANNEL_ENV, System.getenv(CHANNEL_ENV)).isEqualTo(expected);
  }

  private String firstAnswer(String... channel) throws IOException {
    List<String> flags = new ArrayList<>(List.of("--port", "0", "--admin-port", "0", "--host", "127.0.0.1",
        "--instances", "1"));
    flags.addAll(List.of(channel));
    ServiceRuntime runtime = runtimes.start(new FirstReadSeen(), flags.toArray(String[]::new));
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("127.0.0.1", runtime.port()), 5000);
      s.setSoTimeout(10_000);
      OutputStream out = s.getOutputStream();
      out.write('a');
      out.flush();
      InputStream in = s.getInputStream();
      return new String(in.readAllBytes(), StandardCharsets.US_ASCII).strip();
    }
  }

  /** A NetServer that answers a connection's first read with "view" or "copy", then closes it. */
  private static final class FirstReadSeen extends TestService {
    FirstReadSeen() {
      super("first-read-seen", "tells whether its decoder would read the Buffer's own memory");
    }

    @Override
    public ServiceVerticle newVerticle() {
      return new ServiceVerticle() {
        @Override
        public Future<?> start() {
          NettyAccess.BufferBytes bufferBytes = service.bufferBytes();
          NetServer server = vertx.createNetServer(service.netServerOptions())
              .connectHandler(socket -> socket.handler(read -> {
                ByteBuf bytes = bufferBytes.byteBuf(read);
                byte first = read.getByte(0);
                read.setByte(0, (byte) (first + 1));
                boolean view = bytes.getByte(bytes.readerIndex()) != first;
                socket.end(Buffer.buffer(view ? "view\n" : "copy\n"));
              }));
          return service.listen(server);
        }
      };
    }
  }
}
