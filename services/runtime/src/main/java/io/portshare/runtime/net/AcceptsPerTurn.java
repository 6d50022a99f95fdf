package io.portshare.runtime.net;

import io.netty.channel.MaxMessagesRecvByteBufAllocator;
import io.netty.channel.ServerChannelRecvByteBufAllocator;

/**
 * How many connections a listener takes from its accept queue in one turn of its event loop: all
 * that wait, up to {@link #MAX} (64), as a C epoll server accepts until EAGAIN.
 *
 * <p>Netty 4.2 gives an epoll listener one accept(2) per turn ({@code ServerChannelRecvByteBufAllocator}
 * allows one message per read; NIO's listener takes 16 a turn, io_uring submits its
 * accepts its own way, and {@code AcceptsPerTurnTest} pins all of that down). Where the loop that accepts also serves the connections
 * ({@code --accept-on-event-loop}, the default with a socket per instance), each further accept
 * waits for a whole turn over every connection that has data. Cold, those turns are slow: on a
 * fresh process under strace, with four clients sending 400 KiB each queued at once, one listener's
 * accept4 calls came 38, 150 and 10 ms apart; on a busy machine a SIGTERM found connections still
 * queued, and a drain that stopped waiting for them reset them.
 *
 * <p>{@link #MAX} bounds a turn so that a storm of connections cannot keep the loop from reading:
 * 64 covers the benchmark's 32 reconnecting clients in one turn. It is Netty's own listener
 * allocator with that bound and without its guess that more data waits: a listener's "bytes read"
 * is the accepted descriptor, so that guess means nothing here, and the accept loop itself stops
 * when accept(2) finds the queue empty. A {@code MAX_MESSAGES_PER_READ} option on the listener
 * still changes the bound.
 */
public final class AcceptsPerTurn {

  static final int MAX = 64;

  private AcceptsPerTurn() {
  }

  public static MaxMessagesRecvByteBufAllocator allocator() {
    return new ServerChannelRecvByteBufAllocator().respectMaybeMoreData(false).maxMessagesPerRead(MAX);
  }
}
