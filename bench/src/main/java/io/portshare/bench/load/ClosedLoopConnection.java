package io.portshare.bench.load;

import io.netty.buffer.ByteBuf;

/**
 * Closed loop: one request in flight; the next goes out when the reply arrived. The first
 * transaction on a connection is timed from the start of the connect, so with one transaction per
 * connection the latency is that of connect + request + reply.
 */
final class ClosedLoopConnection extends LoadConnection {

  /** This connection's own view of the shared frame: its reader index is reset for every send. */
  private final ByteBuf request;
  private long sentAt;

  ClosedLoopConnection(LoopLoad loop, Wire wire, int perConnection) {
    super(loop, wire, perConnection);
    this.request = frame.duplicate();
  }

  @Override
  void opened(long now) {
    send(connectStart);
  }

  @Override
  void answered(long now) {
    stats.completed(now - sentAt, now);
    if (stats.clock.over(now) || answeredOnConnection == perConnection) {
      close();
    } else {
      send(now);
    }
  }

  private void send(long startedAt) {
    sentAt = startedAt;
    sentOnConnection++;
    // Safe to rewind: the previous write of this buffer was complete before its reply could arrive.
    request.readerIndex(0);
    channel.writeAndFlush(request, channel.voidPromise());
  }
}
