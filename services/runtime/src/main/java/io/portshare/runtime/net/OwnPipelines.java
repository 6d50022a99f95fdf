package io.portshare.runtime.net;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.Promise;
import io.netty.util.concurrent.ScheduledFuture;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The listeners whose connections get the service's own Netty pipeline in place of Vert.x's, one
 * per event loop: the runtime's listener layer binds them (every mode, inherited sockets) and
 * counts each connection, and no {@code NetSocket} or HTTP connection is made for it. On a 1 KB
 * {@code Connection: close} request Vert.x's connection layer was most of static-server's user time
 * over plain Netty's (ledger: 33-37 against 13-16 µs per request), and half of the bytes rpc-server
 * allocated per connection (a 4 KB outbound queue per {@code NetSocket}).
 *
 * <p>Because Vert.x does not know these connections, its server shutdown cannot drain them: each
 * loop keeps its open ones and drains them itself ({@link Loop#drain}).
 */
public final class OwnPipelines {

  private static final Logger LOG = LoggerFactory.getLogger(OwnPipelines.class);

  private final Map<EventExecutor, Loop> loops = new ConcurrentHashMap<>();
  /** The service's event loop groups, as its Vert.x instances make them. */
  private final List<EventLoopGroup> groups = new CopyOnWriteArrayList<>();

  /**
   * Registers, for the calling event loop, what sets up each connection of its own-pipeline
   * listener ({@link RuntimeTransport#listenOwnPipelines}) that the loop is given.
   *
   * @throws IllegalStateException off an event loop, or when this loop has one already
   */
  public Loop register(Consumer<Channel> setUp) {
    EventExecutor executor = current();
    if (executor == null) {
      throw new IllegalStateException("a listener with its own pipeline is set up from its verticle's start, on its "
          + "event loop; this thread (" + Thread.currentThread().getName() + ") is none");
    }
    Loop loop = new Loop(executor, setUp);
    if (loops.putIfAbsent(executor, loop) != null) {
      throw new IllegalStateException("event loop " + Thread.currentThread().getName()
          + " has a listener with its own pipeline already; one per event loop");
    }
    return loop;
  }

  /** For the listener layer: a group of the service's event loops. */
  void addGroup(EventLoopGroup group) {
    groups.add(group);
  }

  /** The service's event loop this thread runs, or null. */
  private EventExecutor current() {
    for (EventLoopGroup group : groups) {
      for (EventExecutor executor : group) {
        if (executor.inEventLoop()) {
          return executor;
        }
      }
    }
    return null;
  }

  /** For the listener layer, on the connection's event loop once it is registered and counted. */
  void setUp(Channel connection) {
    Loop loop = loops.get(connection.eventLoop());
    if (loop == null || loop.draining) {
      // Accepted as the listener closed for a drain that has begun: nothing would drain it.
      connection.close();
      return;
    }
    loop.add(connection);
  }

  /** One event loop's listener with its own pipelines: the connections it holds open, and their drain. */
  public static final class Loop {
    private final EventExecutor executor;
    private final Consumer<Channel> setUp;
    /** Touched only on {@link #executor}. */
    private final Set<Channel> open = new HashSet<>();
    /** One listener for every connection's close: nothing is made per connection but its entry. */
    private final ChannelFutureListener closed = f -> closed(f.channel());
    private boolean draining;
    private Promise<Void> drained;
    private ScheduledFuture<?> deadline;

    private Loop(EventExecutor executor, Consumer<Channel> setUp) {
      this.executor = executor;
      this.setUp = setUp;
    }

    private void add(Channel connection) {
      open.add(connection);
      connection.closeFuture().addListener(closed);
      setUp.accept(connection);
    }

    private void closed(Channel connection) {
      open.remove(connection);
      if (drained != null && open.isEmpty()) {
        if (deadline != null) {
          deadline.cancel(false);
        }
        drained.trySuccess(null);
      }
    }

    /**
     * On this loop: fires {@code event} through the pipeline of every open connection, whose
     * handlers finish what they have in flight and close; completes once all have closed, or, when
     * {@code timeout} has passed, closes the rest and completes once they have.
     */
    public io.netty.util.concurrent.Future<Void> drain(Object event, Duration timeout) {
      if (!executor.inEventLoop()) {
        throw new IllegalStateException("a drain runs on its event loop");
      }
      if (drained != null) {
        return drained;
      }
      draining = true;
      drained = executor.newPromise();
      if (open.isEmpty()) {
        drained.setSuccess(null);
        return drained;
      }
      deadline = executor.schedule(this::closeAll, timeout.toNanos(), TimeUnit.NANOSECONDS);
      // A copy: a handler may close its connection as it sees the event.
      for (Channel connection : new ArrayList<>(open)) {
        connection.pipeline().fireUserEventTriggered(event);
      }
      return drained;
    }

    /**
     * Every {@code period}, on this loop, calls {@code visit} with each connection it holds open:
     * what a service times out per connection (idle, slow heads) it checks here, one task per loop
     * instead of a scheduled task per connection, which is an allocation and a heap insert on accept
     * and a heap removal on close. The visit may close the connection.
     */
    public void sweep(Duration period, Consumer<Channel> visit) {
      if (!executor.inEventLoop()) {
        throw new IllegalStateException("a sweep is set up on its event loop");
      }
      long nanos = period.toNanos();
      executor.scheduleAtFixedRate(() -> {
        Channel[] visited = open.toArray(new Channel[0]);
        int failed = 0;
        RuntimeException first = null;
        // A copy: a visit may close its connection, whose listener takes it out of the set.
        for (Channel connection : visited) {
          try {
            visit.accept(connection);
          } catch (RuntimeException e) {
            // A task at fixed rate that throws is never run again: one bad visit must not end the
            // timeouts of every connection on this loop.
            failed++;
            first = first == null ? e : first;
          }
        }
        if (first != null) {
          LOG.warn("connection sweep: {} of {} visits failed, the first with {}", failed, visited.length,
              first.toString(), first);
        }
      }, nanos, nanos, TimeUnit.NANOSECONDS);
    }

    private void closeAll() {
      for (Channel connection : new ArrayList<>(open)) {
        connection.close();
      }
    }
  }
}
