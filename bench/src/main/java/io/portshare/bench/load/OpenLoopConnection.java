package io.portshare.bench.load;

/**
 * Open loop: requests are due at fixed intervals whatever the replies do, and each latency runs
 * from the request's due time, not from when it could actually be sent, so a stalled server (or a
 * late generator) shows up in the percentiles instead of silently lowering the rate (no coordinated
 * omission). Replies come in order, so the due time of any request is its index times the
 * interval: no queue of timestamps is kept. Requests lost with a dropped connection are sent again
 * on the next one and keep their original due time.
 *
 * <p>The measured window holds the requests DUE in it, not the replies that happen to arrive in
 * it: a request due just before the window ends is waited for after it (until the run's drain
 * limit), and one never answered is counted as {@link ErrorKind#UNANSWERED}, so a stall at the end
 * of the window cannot drop out of the figures either.
 */
final class OpenLoopConnection extends LoadConnection {

  private final long firstDue;
  private final long intervalNanos;
  private final boolean pipelines;
  /** Indexes of the requests due in the measured window: [windowFirst, windowEnd). */
  private final long windowFirst;
  private final long windowEnd;
  private long nextToSend;
  private long nextToAnswer;

  OpenLoopConnection(LoopLoad loop, Wire wire, int perConnection, long firstDue, long intervalNanos) {
    super(loop, wire, perConnection);
    this.firstDue = firstDue;
    this.intervalNanos = intervalNanos;
    this.pipelines = wire.pipelines();
    this.windowFirst = dueBy(stats.clock.measureStart - 1, firstDue, intervalNanos);
    this.windowEnd = dueBy(stats.clock.measureEnd - 1, firstDue, intervalNanos);
  }

  /** Requests due by {@code now}, counted from the first. */
  static long dueBy(long now, long firstDue, long intervalNanos) {
    return now < firstDue ? 0 : (now - firstDue) / intervalNanos + 1;
  }

  long dueTime(long index) {
    return firstDue + index * intervalNanos;
  }

  @Override
  boolean wantsConnection(long now) {
    return nextToAnswer < windowEnd;
  }

  /**
   * With one request per connection the connection is part of the request: it is opened when its
   * request falls due, not ahead of it, so the handshake (and a full accept queue) is in the latency.
   */
  @Override
  long connectDelay(long now) {
    return perConnection == 1 ? dueTime(nextToAnswer) - now : 0;
  }

  /** Whether a request due in the window still waits for its answer. */
  boolean outstanding() {
    return nextToAnswer < windowEnd;
  }

  /** Requests due in the window that were never answered (read once the loop stopped). */
  long unanswered() {
    return Math.max(0, windowEnd - Math.max(nextToAnswer, windowFirst));
  }

  @Override
  void opened(long now) {
    // Requests lost with a dropped connection go out again and keep their due times.
    nextToSend = nextToAnswer;
    tick(now);
  }

  /** Sends every request that is due (one at a time where the wire does not pipeline); the loop calls this on each tick. */
  void tick(long now) {
    if (!isOpen()) {
      return;
    }
    long due = Math.min(dueBy(now, firstDue, intervalNanos), windowEnd);
    boolean wrote = false;
    if (sentOnConnection == answeredOnConnection && nextToSend < due) {
      lastActivity = now; // the timeout counts from here when the line was idle
    }
    while (nextToSend < due && sentOnConnection < perConnection
        && (pipelines || sentOnConnection == answeredOnConnection)) {
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
    long index = nextToAnswer++;
    if (index >= windowFirst && index < windowEnd) {
      stats.completedInWindow(now - dueTime(index));
    }
    if (answeredOnConnection == perConnection) {
      close();
    } else if (!pipelines) {
      tick(now); // the next one may be due already: it must not wait for the timer
    }
  }
}
