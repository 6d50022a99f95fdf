package io.portshare.statics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.vertx.core.transport.Transport;
import java.io.IOException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every {@link StaticServerTest} again with {@code --transport io_uring}: files above
 * {@code --memory-max} still go out zero-copy (splice, counted as sendfile), ranges, keep-alive and
 * {@code Connection: close} answer the same.
 */
class StaticServerOnIoUringTest extends StaticServerTest {

  @BeforeAll
  static void start() throws IOException {
    assumeTrue(Transport.IO_URING.available(), "io_uring allowed here");
    startWith("--transport", "io_uring");
  }

  @Test
  void runsOnIoUring() {
    assertThat(rt.transport()).isEqualTo("io_uring");
    assertThat(rt.registry().scrape()).containsPattern("portshare_info\\{[^}]*transport=\"io_uring\"");
  }
}
