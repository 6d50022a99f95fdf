package io.portshare.runtime.net;

import io.netty.channel.MaxMessagesRecvByteBufAllocator;
import io.netty.channel.ServerChannelRecvByteBufAllocator;
import io.netty.util.NetUtil;

/**
 * How many connections a listener takes from its accept queue in one turn of its event loop: all
 * that wait, as a C epoll server accepts until EAGAIN and nginx does with {@code multi_accept on},
 * bounded by one full accept queue ({@link #MAX}, the kernel's somaxconn) so that connections
 * arriving as fast as they are taken cannot hold the loop in accept(2) for ever.
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
 * <p>Why not a smaller bound: it was 64 a turn, and under seed 000's storm (30,000 concurrent
 * {@code Connection: close} clients, 1 KB, wrk's timeout 5 s) the queue overflowed while the loop
 * served its turn, the kernel dropped the SYNs (ListenOverflows 2.5-3.6 times nginx's) and the
 * clients it dropped thrice waited 1 + 2 + 4 s to connect, past the timeout: 1,116-1,968 timeouts
 * per 20 s run where nginx had none. Taking the whole queue brought both to nginx's
 * (bench/report/storm/accepts-ab). A smaller epoll event array per turn, as nginx has, did not:
 * 2,521 timeouts with 512 events and 64 accepts.
 *
 * <p>It is Netty's own listener allocator with that bound and without its guess that more data
 * waits: a listener's "bytes read" is the accepted descriptor, so that guess means nothing here, and
 * the accept loop itself stops when accept(2) finds the queue empty. A {@code MAX_MESSAGES_PER_READ}
 * option on the listener still changes the bound.
 */
public final class AcceptsPerTurn {

  static final int MAX = NetUtil.SOMAXCONN;

  private AcceptsPerTurn() {
  }

  public static MaxMessagesRecvByteBufAllocator allocator() {
    return new ServerChannelRecvByteBufAllocator().respectMaybeMoreData(false).maxMessagesPerRead(MAX);
  }
}
