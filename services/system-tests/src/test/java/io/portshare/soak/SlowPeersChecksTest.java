package io.portshare.soak;

import io.portshare.kit.FreePorts;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.Test;

/**
 * The slow-peer checks fail when the server misbehaves: a peer that never closes is not counted as
 * closed (and the wait for it ends), and a connect that fails is not a close by the server. The
 * misbehaving "server" is a plain socket that accepts and then neither reads nor closes.
 */
class SlowPeersChecksTest {

  @Test
  void aFloodIntoAServerThatNeverClosesIsReportedAsNotClosedWithinTheLimit() throws Exception {
    ScheduledExecutorService watchdog = Executors.newSingleThreadScheduledExecutor();
    try (ServerSocket deaf = new ServerSocket(0, 50)) {
      Thread acceptor = new Thread(() -> {
        try {
          Socket held = deaf.accept(); // held, never read, never closed until the test ends
          Thread.sleep(60_000);
          held.close();
        } catch (Exception e) {
          // the test is over
        }
      });
      acceptor.setDaemon(true);
      acceptor.start();
      // The watchdog's 2 s ends the blocked writes; two minutes only catch it never doing so.
      long written = assertTimeoutPreemptively(Duration.ofMinutes(2),
          () -> SlowPeers.neverRead(deaf.getLocalPort(), Duration.ofSeconds(2), watchdog));
      assertThat(written).isEqualTo(SlowPeers.NOT_CLOSED);
      acceptor.interrupt();
    } finally {
      watchdog.shutdownNow();
    }
  }

  @Test
  void aConnectThatFailsIsNotAClose() throws Exception {
    int closedPort = FreePorts.block(1);
    ScheduledExecutorService watchdog = Executors.newSingleThreadScheduledExecutor();
    try {
      assertThat(SlowPeers.neverRead(closedPort, Duration.ofSeconds(2), watchdog)).isEqualTo(SlowPeers.NOT_CONNECTED);
    } finally {
      watchdog.shutdownNow();
    }
    assertThat(SlowPeers.halfFrame(closedPort)).isFalse();
    assertThat(SlowPeers.slowloris(closedPort)).isFalse();
  }
}
