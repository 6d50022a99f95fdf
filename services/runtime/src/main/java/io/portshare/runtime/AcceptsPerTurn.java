package io.portshare.runtime;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelConfig;
import io.netty.channel.MaxMessagesRecvByteBufAllocator;
import io.netty.channel.RecvByteBufAllocator;
import io.netty.util.UncheckedBooleanSupplier;

/**
 * How many connections a listener takes from its accept queue in one turn of its event loop: all
 * that wait, up to {@link #MAX} (64), as a C epoll server accepts until EAGAIN.
 *
 * <p>Netty 4.2 gives an epoll listener one accept(2) per turn ({@code ServerChannelRecvByteBufAllocator}
 * allows one message per read; NIO's listener already takes the whole queue, io_uring submits its
 * accepts its own way, and {@code AcceptsPerTurnTest} pins all of that down). Where the loop that accepts also serves the connections
 * ({@code --accept-on-event-loop}, the default with a socket per instance), each further accept
 * waits for a whole turn over every connection that has data. Cold, those turns are slow: on a
 * fresh process under strace, with four clients sending 400 KiB each queued at once, one listener's
 * accept4 calls came 38, 150 and 10 ms apart; on a busy machine a SIGTERM found connections still
 * queued, and a drain that stopped waiting for them reset them.
 *
 * <p>{@link #MAX} bounds a turn so that a storm of connections cannot keep the loop from reading:
 * 64 covers the benchmark's 32 reconnecting clients in one turn.
 */
final class AcceptsPerTurn implements MaxMessagesRecvByteBufAllocator {

  static final int MAX = 64;

  /** A {@code MAX_MESSAGES_PER_READ} option on the listener changes it, as Netty's own allocators allow. */
  private volatile int max = MAX;

  @Override
  public Handle newHandle() {
    return new Turn();
  }

  @Override
  public int maxMessagesPerRead() {
    return max;
  }

  @Override
  public MaxMessagesRecvByteBufAllocator maxMessagesPerRead(int maxMessagesPerRead) {
    if (maxMessagesPerRead < 1) {
      throw new IllegalArgumentException("maxMessagesPerRead: " + maxMessagesPerRead + " (expected: > 0)");
    }
    max = maxMessagesPerRead;
    return this;
  }

  /** The accept loop's bookkeeping for one turn; the loop itself stops at an empty queue (EAGAIN). */
  private final class Turn implements RecvByteBufAllocator.ExtendedHandle {
    private ChannelConfig config;
    private int accepted;
    private int lastBytesRead;
    private int attemptedBytesRead;

    @Override
    public ByteBuf allocate(ByteBufAllocator alloc) {
      return alloc.ioBuffer(guess());
    }

    @Override
    public int guess() {
      return 128;
    }

    @Override
    public void reset(ChannelConfig config) {
      this.config = config;
      accepted = 0;
    }

    @Override
    public void incMessagesRead(int numMessages) {
      accepted += numMessages;
    }

    @Override
    public void lastBytesRead(int bytes) {
      lastBytesRead = bytes;
    }

    @Override
    public int lastBytesRead() {
      return lastBytesRead;
    }

    @Override
    public void attemptedBytesRead(int bytes) {
      attemptedBytesRead = bytes;
    }

    @Override
    public int attemptedBytesRead() {
      return attemptedBytesRead;
    }

    @Override
    public boolean continueReading() {
      return config.isAutoRead() && accepted < max;
    }

    @Override
    public boolean continueReading(UncheckedBooleanSupplier maybeMoreDataSupplier) {
      // A listener's "bytes read" is the accepted descriptor, so the transports' guess that more
      // waits is meaningless here: the accept loop itself stops when accept(2) finds the queue empty.
      return continueReading();
    }

    @Override
    public void readComplete() {}
  }
}
