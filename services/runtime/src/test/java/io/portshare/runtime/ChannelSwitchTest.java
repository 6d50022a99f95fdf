package io.portshare.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.portshare.kit.HttpWire;
import io.portshare.runtime.impl.ServiceRuntime;
import io.vertx.core.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A Vert.x server asking for a socket option the lean channels do not serve fails to start with one
 * line that names the option and the way out; on Netty's own channels it serves.
 */
class ChannelSwitchTest {

  @RegisterExtension
  final Runtimes runtimes = new Runtimes();

  @Test
  void anOptionTheLeanChannelsDoNotServeFailsTheStartWithOneLine() {
    assertThatThrownBy(() -> runtimes.start(new FastOpenHello(), "--port", "0", "--admin-port", "0", "--host",
        "127.0.0.1", "--instances", "1", "--transport", "epoll", "--channel", "lean"))
        .isInstanceOf(io.portshare.runtime.UsageException.class)
        .hasMessage("--channel lean does not serve the listener option TCP_FASTOPEN=256 this server asks for;"
            + " run it with --channel netty");
  }

  @Test
  void onNettysChannelsTheSameServerServes() throws Exception {
    ServiceRuntime runtime = runtimes.start(new FastOpenHello(), "--port", "0", "--admin-port", "0", "--host",
        "127.0.0.1", "--instances", "1", "--transport", "epoll", "--channel", "netty");
    assertThat(HttpWire.get(runtime.port(), "/").body()).asString().isEqualTo("fast\n");
  }

  /** An HTTP server on Vert.x's API with TCP Fast Open on, a listener option only Netty's channels serve. */
  private static final class FastOpenHello extends TestService {
    FastOpenHello() {
      super("fast-open", "answers with TCP_FASTOPEN on");
    }

    @Override
    public ServiceVerticle newVerticle() {
      return new ServiceVerticle() {
        @Override
        public Future<?> start() {
          return service.listen(vertx.createHttpServer(service.httpServerOptions().setTcpFastOpen(true))
              .requestHandler(req -> req.response().end("fast\n")));
        }
      };
    }
  }
}
