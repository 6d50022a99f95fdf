package io.portshare.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.portshare.runtime.impl.ServiceRuntime;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * SIGTERM on a cold server: connections its event loop has not accepted yet wait in the listener's
 * accept queue, and the drain must accept and answer them rather than close the listener over
 * them (closing a listening socket resets whatever waits in its queue).
 */
class DrainAcceptQueueTest {

  private static final int CLIENTS = 40;

  @RegisterExtension
  final Runtimes runtimes = new Runtimes();

  /**
   * Each read holds the loop 100 ms, as a cold loop's first turns do: a loop that took one
   * connection from its queue per turn needed 4 s for these 40, and a drain that gave up on the
   * queue before that reset the rest.
   */
  @Test
  void connectionsQueuedBehindASlowEventLoopAreAnsweredByTheDrain() throws Exception {
    ServiceRuntime runtime = runtimes.start(new SlowTurnService(Duration.ofMillis(100)), "--port", "0",
        "--admin-port", "0", "--host", "127.0.0.1", "--instances", "1", "--mode", "reuseport",
        "--drain-timeout", "20s");
    List<Socket> clients = new ArrayList<>();
    try {
      for (int i = 0; i < CLIENTS; i++) {
        Socket s = new Socket();
        s.setSoTimeout(30_000);
        s.connect(new InetSocketAddress("127.0.0.1", runtime.port()), 10_000);
        s.getOutputStream().write('a' + i % 26);
        clients.add(s);
      }
      // The SIGTERM: every client is connected and has sent its request; most still wait to be accepted.
      CompletableFuture<Void> stopped = CompletableFuture.runAsync(() -> runtime.stop(Duration.ofSeconds(20)));
      List<String> lost = new ArrayList<>();
      for (int i = 0; i < CLIENTS; i++) {
        String outcome = answer(clients.get(i), 'a' + i % 26);
        if (!outcome.equals("answered")) {
          lost.add("client " + i + ": " + outcome);
        }
        clients.get(i).close();
      }
      stopped.get();
      assertThat(lost).as("connections the drain did not answer").isEmpty();
    } finally {
      for (Socket s : clients) {
        s.close();
      }
    }
  }

  private static String answer(Socket s, int expected) {
    try {
      InputStream in = s.getInputStream();
      int b = in.read();
      return b == expected ? "answered" : b < 0 ? "closed unanswered" : "wrong answer " + b;
    } catch (IOException e) {
      return e.toString();
    }
  }
}
