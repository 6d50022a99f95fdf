package io.portshare.statics;

import io.portshare.kit.LogCapture;
import io.portshare.runtime.IoUringOrFallback;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every {@link StaticServerTest} again with {@code --transport io_uring}: files above
 * {@code --memory-max} still go out zero-copy (splice, counted as sendfile), ranges, keep-alive and
 * {@code Connection: close} answer the same. Where the kernel refuses io_uring they run on the
 * epoll fallback, which is checked first: one warning, and epoll in {@code portshare_info}.
 */
class StaticServerOnIoUringTest extends StaticServerTest {

  private static List<String> startWarnings;

  @BeforeAll
  static void start() throws IOException {
    try (LogCapture log = LogCapture.attach()) {
      startWith("--transport", "io_uring");
      startWarnings = log.warningsAndErrors();
    }
  }

  @Test
  void runsOnIoUringOrSaysWhyNot() {
    IoUringOrFallback.check(rt, startWarnings);
  }
}
