package io.portshare.runtime.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Connections that wait in a listener's accept queue when a drain closes it: closing at once
 * resets them; {@link Listeners#closeAll} accepts them first. On the two transports whose
 * listeners have a Linux fd to read the queue from.
 */
class ListenersTest {

  @ParameterizedTest(name = "on {0}")
  @ValueSource(strings = {"epoll", "io_uring"})
  void queuedConnectionsAreAcceptedAndServedBeforeTheListenerCloses(String transport) throws Exception {
    try (QueuedListener queued = QueuedListener.on(transport)) {
      Listeners listeners = new Listeners();
      Channel listener = echoListener(queued, listeners);
      queued.connect(3);
      await().atMost(Duration.ofSeconds(5)).until(() -> Listeners.waiting(listener) == 3);

      listener.config().setAutoRead(true);
      listeners.closeAll(Duration.ofSeconds(2));

      assertThat(listener.isOpen()).isFalse();
      for (Socket s : queued.clients()) {
        assertThat(echo(s)).as("connection queued at the close").isEqualTo('x');
      }
    }
  }

  @ParameterizedTest(name = "on {0}")
  @ValueSource(strings = {"epoll", "io_uring"})
  void closingWithoutWaitingResetsWhatIsQueued(String transport) throws Exception {
    try (QueuedListener queued = QueuedListener.on(transport)) {
      Listeners listeners = new Listeners();
      Channel listener = echoListener(queued, listeners);
      queued.connect(2);
      await().atMost(Duration.ofSeconds(5)).until(() -> Listeners.waiting(listener) == 2);

      listeners.closeAll(Duration.ZERO);

      for (Socket s : queued.clients()) {
        assertThat(echo(s)).as("connection queued at the close").isEqualTo(-1);
      }
    }
  }

  @ParameterizedTest(name = "on {0}")
  @ValueSource(strings = {"epoll", "io_uring"})
  void anOpenListenerWithNothingQueuedWaitsForNothing(String transport) throws Exception {
    try (QueuedListener queued = QueuedListener.on(transport)) {
      Listeners listeners = new Listeners();
      Channel listener = echoListener(queued, listeners);
      listener.config().setAutoRead(true);
      // A wait longer than the test may run: a close that returns at all did not wait it out.
      CompletableFuture<Void> closed = CompletableFuture.runAsync(() -> listeners.closeAll(Duration.ofMinutes(10)));
      closed.get(60, TimeUnit.SECONDS);
      assertThat(listener.isOpen()).isFalse();
      assertThat(Listeners.waiting(listener)).isZero();
    }
  }

  /** A listener of the kind the runtime makes, not accepting until told, whose connections echo. */
  private static Channel echoListener(QueuedListener queued, Listeners listeners) {
    Channel ch = queued.listen(b -> b.childHandler(new Echo()));
    listeners.add(ch);
    return ch;
  }

  @ChannelHandler.Sharable
  private static final class Echo extends ChannelInboundHandlerAdapter {
    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      ctx.writeAndFlush((ByteBuf) msg);
    }
  }

  /** The echoed byte, or -1 when the connection was reset or closed. */
  private static int echo(Socket s) {
    try {
      InputStream in = s.getInputStream();
      return in.read();
    } catch (IOException e) {
      return -1;
    }
  }
}
