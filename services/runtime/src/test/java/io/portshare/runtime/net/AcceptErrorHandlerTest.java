package io.portshare.runtime.net;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.embedded.EmbeddedChannel;
import io.portshare.kit.LogCapture;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * accept(2) failing on a listening socket, on a clock and a loop the test moves: one line at most
 * every ten seconds, counting the failures since the last, and a pause of one second in accepting
 * after each failure. {@code DescriptorLimitTest} (system-tests) shows the same at a real limit.
 */
class AcceptErrorHandlerTest {

  private static final String OUT_OF_DESCRIPTORS = "WARN " + AcceptErrorHandler.class.getName()
      + ": line: cannot accept connections: out of file descriptors (open files limit ";

  private final AtomicLong nanos = new AtomicLong(TimeUnit.HOURS.toNanos(5));
  private final EmbeddedChannel listener = new EmbeddedChannel(new AcceptErrorHandler("line", () -> 7, nanos::get));

  AcceptErrorHandlerTest() {
    listener.freezeTime();
  }

  private void acceptFails() {
    listener.pipeline().fireExceptionCaught(new IOException("accept(..) failed: Too many open files"));
  }

  private void advanceSeconds(long seconds) {
    nanos.addAndGet(TimeUnit.SECONDS.toNanos(seconds));
  }

  @Test
  void oneLineAtMostEveryTenSecondsCountingTheFailuresBetween() {
    try (LogCapture log = LogCapture.attach()) {
      acceptFails();
      assertThat(log.warningsAndErrors()).singleElement().asString().startsWith(OUT_OF_DESCRIPTORS)
          .contains(", 7 connections open, 1 failed accepts); waiting connections stay queued");

      // Five more failures, a second apart: nine seconds after the line, none says anything.
      for (int i = 0; i < 5; i++) {
        advanceSeconds(1);
        acceptFails();
      }
      advanceSeconds(4);
      acceptFails();
      assertThat(log.warningsAndErrors()).as("lines within ten seconds of the first").hasSize(1);

      // Ten seconds after the first line, the next failure says how many there were since.
      advanceSeconds(1);
      acceptFails();
      assertThat(log.warningsAndErrors()).hasSize(2);
      assertThat(log.warningsAndErrors().get(1)).startsWith(OUT_OF_DESCRIPTORS).contains(", 7 failed accepts)");

      // Another error than descriptors says its own message, on the same ten seconds.
      advanceSeconds(10);
      listener.pipeline().fireExceptionCaught(new IOException("accept(..) failed: Software caused connection abort"));
      assertThat(log.warningsAndErrors()).hasSize(3);
      assertThat(log.warningsAndErrors().get(2)).isEqualTo("WARN " + AcceptErrorHandler.class.getName()
          + ": line: cannot accept connections: accept(..) failed: Software caused connection abort "
          + "(1 failed accepts); retrying in 1000 ms");
    }
  }

  @Test
  void eachFailurePausesAcceptingForOneSecond() {
    assertThat(listener.config().isAutoRead()).isTrue();
    acceptFails();
    assertThat(listener.config().isAutoRead()).as("accepting right after a failure").isFalse();

    listener.advanceTimeBy(999, TimeUnit.MILLISECONDS);
    listener.runScheduledPendingTasks();
    assertThat(listener.config().isAutoRead()).as("accepting 999 ms after it").isFalse();

    listener.advanceTimeBy(1, TimeUnit.MILLISECONDS);
    listener.runScheduledPendingTasks();
    assertThat(listener.config().isAutoRead()).as("accepting 1 s after it").isTrue();
  }
}
