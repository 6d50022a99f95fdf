package io.portshare.runtime.net;

import io.netty.channel.Channel;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.ChannelPromise;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.FastThreadLocal;
import io.netty.util.concurrent.ScheduledFuture;
import io.portshare.runtime.ServiceContext;
import io.vertx.core.net.NetServerOptions;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Vert.x server's idle timeouts (its options' {@code idleTimeout}, {@code readIdleTimeout} and
 * {@code writeIdleTimeout}; {@code --idle-timeout} among them) kept by one sweep per event loop
 * instead of Netty's {@link IdleStateHandler} in every connection. That handler schedules a task
 * as each connection opens (an allocation and a heap insert, a removal as it closes), reads the
 * clock on every read and write, and gives every write a promise with a listener: on the ledger's
 * Router verticle it was most of the runtime's +0.88 µs per 1 KB keep-alive request over stock
 * Vert.x ({@code bench/report/ledger/cpu-by-owner}). Here a connection's {@link Watch} counts its
 * reads and writes, and its loop's sweep, every {@link ServiceContext#sweepPeriodFor quarter of the
 * shortest timeout} (50 ms to 1 s), compares the counts with what the last visit saw and fires
 * Netty's {@link IdleStateEvent} through the pipeline of a connection idle for its timeout; Vert.x
 * closes the connection on it, as on its own handler's.
 *
 * <p>What differs from Netty's handler: a timeout ends up to one sweep period late; a write counts
 * as it is made, and a write still leaving (a large {@code sendFile} to a slow reader) counts while
 * its bytes move, where Netty's handler as Vert.x sets it up (without {@code observeOutput}) calls
 * such a connection idle.
 *
 * <p>Vert.x adds its handler in {@code NetServerImpl.initChannel} when its own copy of the server's
 * options has an idle timeout, and hands that copy to the transport's {@code configure}: the
 * runtime's transport reads the timeouts there and sets them to 0 ({@link #takeOver}). With
 * {@code --channel netty} nothing is taken over and Vert.x's handler stays; IdleSweepTest fails
 * when a Vert.x upgrade adds it in spite of this.
 */
final class IdleSweep {

  private static final Logger LOG = LoggerFactory.getLogger(IdleSweep.class);
  private static final FastThreadLocal<Loop> LOOPS = new FastThreadLocal<>();

  private final long readNanos;
  private final long writeNanos;
  private final long allNanos;
  private final long periodNanos;

  private IdleSweep(long readNanos, long writeNanos, long allNanos) {
    this.readNanos = readNanos;
    this.writeNanos = writeNanos;
    this.allNanos = allNanos;
    long shortest = Long.MAX_VALUE;
    for (long t : new long[] {readNanos, writeNanos, allNanos}) {
      if (t > 0) {
        shortest = Math.min(shortest, t);
      }
    }
    this.periodNanos = ServiceContext.sweepPeriodFor(Duration.ofNanos(shortest)).toNanos();
  }

  /**
   * The sweep for the idle timeouts of {@code options}, Vert.x's copy of a server's, which it takes
   * over: they are 0 in {@code options} afterwards, so Vert.x adds no handler of its own. Null, and
   * {@code options} left as they are, when there is none.
   */
  static IdleSweep takeOver(NetServerOptions options) {
    TimeUnit unit = options.getIdleTimeoutUnit();
    long read = unit.toNanos(Math.max(0, options.getReadIdleTimeout()));
    long write = unit.toNanos(Math.max(0, options.getWriteIdleTimeout()));
    long all = unit.toNanos(Math.max(0, options.getIdleTimeout()));
    if (read == 0 && write == 0 && all == 0) {
      return null;
    }
    options.setReadIdleTimeout(0).setWriteIdleTimeout(0).setIdleTimeout(0);
    return new IdleSweep(read, write, all);
  }

  /** On {@code connection}'s event loop, as it is set up: puts its watch first in its pipeline. */
  void watch(Channel connection) {
    connection.pipeline().addFirst(new Watch(this));
  }

  /**
   * One connection's reads and writes, counted; the fields are the event loop's alone. The first
   * handler of the pipeline, so it sees the socket's own reads and writes.
   */
  static final class Watch extends ChannelDuplexHandler {
    private final IdleSweep sweep;
    private ChannelHandlerContext ctx;
    private Loop loop;
    private boolean listed;
    private Watch prev;
    private Watch next;
    private long reads;
    private long writes;
    private long seenReads;
    private long seenWrites;
    private Object seenCurrent;
    private long seenProgress;
    private long readSince;
    private long writeSince;
    private long allSince;
    private boolean firstRead = true;
    private boolean firstWrite = true;
    private boolean firstAll = true;

    Watch(IdleSweep sweep) {
      this.sweep = sweep;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
      this.ctx = ctx;
      long now = System.nanoTime();
      readSince = now;
      writeSince = now;
      allSince = now;
      loop = Loop.of(ctx.executor());
      loop.add(this, sweep.periodNanos);
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
      loop.remove(this);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      loop.remove(this);
      ctx.fireChannelInactive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      reads++;
      ctx.fireChannelRead(msg);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
      writes++;
      ctx.write(msg, promise);
    }

    /** On the loop, at {@code now}: notes what moved since the last visit, fires what is idle. */
    void visit(long now) {
      if (reads != seenReads) {
        seenReads = reads;
        readSince = now;
        allSince = now;
        firstRead = true;
        firstAll = true;
      }
      if (writes != seenWrites || outputMoved()) {
        seenWrites = writes;
        writeSince = now;
        allSince = now;
        firstWrite = true;
        firstAll = true;
      }
      // As Netty's handler: each kind fires once per timeout it stays idle, the first time as such.
      if (sweep.readNanos > 0 && now - readSince >= sweep.readNanos) {
        readSince = now;
        fire(firstRead ? IdleStateEvent.FIRST_READER_IDLE_STATE_EVENT : IdleStateEvent.READER_IDLE_STATE_EVENT);
        firstRead = false;
      }
      if (sweep.writeNanos > 0 && now - writeSince >= sweep.writeNanos) {
        writeSince = now;
        fire(firstWrite ? IdleStateEvent.FIRST_WRITER_IDLE_STATE_EVENT : IdleStateEvent.WRITER_IDLE_STATE_EVENT);
        firstWrite = false;
      }
      if (sweep.allNanos > 0 && now - allSince >= sweep.allNanos) {
        allSince = now;
        fire(firstAll ? IdleStateEvent.FIRST_ALL_IDLE_STATE_EVENT : IdleStateEvent.ALL_IDLE_STATE_EVENT);
        firstAll = false;
      }
    }

    /** True when bytes of a write already made left since the last visit. */
    private boolean outputMoved() {
      ChannelOutboundBuffer out = ctx.channel().unsafe().outboundBuffer();
      if (out == null) {
        return false;
      }
      Object current = out.current();
      long progress = out.currentProgress();
      boolean moved = current != seenCurrent || progress != seenProgress;
      seenCurrent = current;
      seenProgress = progress;
      return moved && current != null;
    }

    private void fire(IdleStateEvent event) {
      if (listed) {
        ctx.fireUserEventTriggered(event);
      }
    }
  }

  /**
   * One event loop's watches, in a list threaded through them (nothing made per connection), and
   * the task that visits them; everything here runs on that loop.
   */
  private static final class Loop implements Runnable {
    private final EventExecutor executor;
    private Watch head;
    private long periodNanos = Long.MAX_VALUE;
    private ScheduledFuture<?> task;
    private boolean warned;

    private Loop(EventExecutor executor) {
      this.executor = executor;
    }

    static Loop of(EventExecutor executor) {
      Loop loop = LOOPS.getIfExists();
      if (loop == null || loop.executor != executor) {
        loop = new Loop(executor);
        LOOPS.set(loop);
      }
      return loop;
    }

    void add(Watch watch, long period) {
      watch.listed = true;
      watch.prev = null;
      watch.next = head;
      if (head != null) {
        head.prev = watch;
      }
      head = watch;
      // The period of the shortest timeout on this loop; the task stays while the loop lives, so a
      // connection per request schedules nothing.
      if (period < periodNanos) {
        if (task != null) {
          task.cancel(false);
        }
        periodNanos = period;
        task = executor.scheduleAtFixedRate(this, period, period, TimeUnit.NANOSECONDS);
      }
    }

    void remove(Watch watch) {
      if (!watch.listed) {
        return;
      }
      watch.listed = false;
      if (watch.prev != null) {
        watch.prev.next = watch.next;
      } else {
        head = watch.next;
      }
      if (watch.next != null) {
        watch.next.prev = watch.prev;
      }
      // watch.next stays: a sweep standing on this watch walks on from it. It only ever points to
      // watches added before it, so the walk ends.
      watch.prev = null;
    }

    @Override
    public void run() {
      long now = System.nanoTime();
      Watch watch = head;
      while (watch != null) {
        Watch following = watch.next;
        if (watch.listed) {
          try {
            watch.visit(now);
          } catch (RuntimeException e) {
            // A task at fixed rate that throws is never run again: one bad visit must not end the
            // timeouts of every connection on this loop.
            if (!warned) {
              warned = true;
              LOG.warn("idle sweep: a visit failed (said once per event loop): {}", e.toString(), e);
            }
          }
        }
        watch = following;
      }
    }
  }
}
