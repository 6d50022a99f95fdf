package io.portshare.runtime.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * An epoll listener takes every connection waiting in its queue in one turn of its event loop,
 * where Netty 4.2's own allocator takes one per turn (so a loop that also serves connections leaves
 * the rest queued for a turn over all of them each). NIO's listener takes 16 a turn (Netty's default
 * for it). The runtime's bound is one full accept queue, which a queue cannot hold more than.
 */
class AcceptsPerTurnTest {

  /** More than the 64 a turn the runtime once took, and than NIO's 16. */
  private static final int QUEUED = 100;

  @ParameterizedTest(name = "on {0}, runtime allocator {1}: at most {2} accepted in one turn")
  @CsvSource({"epoll, true, 100", "epoll, false, 1", "nio, false, 16"})
  void oneTurnTakesTheWholeQueue(String transport, boolean runtimeAllocator, int mostInOneTurn) throws Exception {
    try (QueuedListener queued = QueuedListener.on(transport)) {
      TurnCounter turns = new TurnCounter();
      Channel listener = queued.listen(b -> {
        b.handler(turns).childHandler(new ChannelInitializer<>() {
          @Override
          protected void initChannel(Channel ch) {}
        });
        return runtimeAllocator ? b.option(ChannelOption.RCVBUF_ALLOCATOR, AcceptsPerTurn.allocator()) : b;
      });
      queued.connect(QUEUED);
      if (transport.equals("epoll")) {
        await().atMost(Duration.ofSeconds(5)).until(() -> Listeners.waiting(listener) == QUEUED);
      }

      listener.config().setAutoRead(true);

      await().atMost(Duration.ofSeconds(10)).until(() -> turns.accepted.get() == QUEUED);
      assertThat(turns.most.get()).isEqualTo(mostInOneTurn);
      listener.close().syncUninterruptibly();
    }
  }

  @org.junit.jupiter.api.Test
  void theBoundIsOneFullAcceptQueue() {
    assertThat(AcceptsPerTurn.allocator().maxMessagesPerRead()).isEqualTo(io.netty.util.NetUtil.SOMAXCONN)
        .isGreaterThanOrEqualTo(QUEUED);
  }

  /** On the listener: counts the connections each turn (one read burst, then read-complete) accepts. */
  private static final class TurnCounter extends ChannelInboundHandlerAdapter {
    final AtomicInteger accepted = new AtomicInteger();
    final AtomicInteger most = new AtomicInteger();
    private int thisTurn;

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      thisTurn++;
      accepted.incrementAndGet();
      ctx.fireChannelRead(msg);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
      most.accumulateAndGet(thisTurn, Math::max);
      thisTurn = 0;
      ctx.fireChannelReadComplete();
    }
  }
}
