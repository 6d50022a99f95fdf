package io.portshare.bench.load;

import io.netty.buffer.ByteBuf;

/**
 * Open loop: requests are due at fixed intervals whatever the replies do, and each latency runs
 * from the request's intended send time, not from when it could actually be sent, so a stalled
 * server shows up in the percentiles instead of silently lowering the rate (no coordinated
 * omission). Replies come in order, so the intended time of any request is its index times the
 * interval: no queue of timestamps is kept. Requests lost with a dropped connection are sent again
 * on the next one and keep their original intended time.
 */
final class OpenLoopConnection extends LoadConnection {

  private final long firstDue;
  private final long intervalNanos;
  private long nextToSend;
  private long nextToAnswer;

  OpenLoopConnection(LoopLoad loop, ByteBuf frame, int perConnection, long firstDue, long intervalNanos) {
    super(loop, frame, perConnection);
    this.firstDue = firstDue;
    this.intervalNanos = intervalNanos;
  }

  /** Requests due by {@code now}, counted from the first. */
  static long dueBy(long now, long firstDue, long intervalNanos) {
    return now < firstDue ? 0 : (now - firstDue) / intervalNanos + 1;
  }

  @Override
  void opened(long now) {
    // Requests lost with a dropped connection go out again and keep their intended times.
    nextToSend = nextToAnswer;
    tick(now);
  }

  /** Sends every request that is due; the loop calls this on each scheduler tick. */
  void tick(long now) {
    if (!isOpen() || stats.clock.over(now)) {
      return;
    }
    long due = dueBy(now, firstDue, intervalNanos);
    boolean wrote = false;
    if (sentOnConnection == answeredOnConnection && nextToSend < due) {
      lastActivity = now; // the timeout counts from here when the line was idle
    }
    while (nextToSend < due && sentOnConnection < perConnection) {
      channel.write(frame.duplicate(), channel.voidPromise());
      nextToSend++;
      sentOnConnection++;
      wrote = true;
    }
    if (wrote) {
      channel.flush();
    }
  }

  @Override
  void answered(long now) {
    long intended = firstDue + nextToAnswer * intervalNanos;
    nextToAnswer++;
    stats.completed(now - intended, now);
    if (answeredOnConnection == perConnection) {
      close();
    }
  }
}
