package io.portshare.bench.load;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.EventLoop;
import io.netty.channel.socket.SocketChannelConfig;
import io.netty.util.concurrent.ScheduledFuture;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The connections of a load run that live on one event loop, and that loop's two timers: the
 * timeout sweep and, in an open loop, the send tick. Everything here runs on that loop's thread.
 */
final class LoopLoad {

  /** Open-loop send tick: requests go out at most this late, which the latency then shows. */
  static final long TICK_MICROS = 200;

  final LoopStats stats;
  private final EventLoop loop;
  private final ClientTransport transport;
  private final InetSocketAddress address;
  private final LoadSpec spec;
  private final List<LoadConnection> all = new ArrayList<>();
  private final List<ScheduledFuture<?>> timers = new ArrayList<>();

  LoopLoad(EventLoop loop, ClientTransport transport, InetSocketAddress address, LoadSpec spec, Wire wire,
      LoopStats stats, int firstConnection, int connections) {
    this.loop = loop;
    this.transport = transport;
    this.address = address;
    this.spec = spec;
    this.stats = stats;
    long intervalNanos = spec.openLoop() ? Math.max(1, spec.connections() * 1_000_000_000L / spec.ratePerSecond()) : 0;
    for (int i = 0; i < connections; i++) {
      if (spec.openLoop()) {
        // Stagger the connections' schedules so that the total rate is smooth, not bursts of C.
        long firstDue = stats.clock.start + (firstConnection + i) * intervalNanos / spec.connections();
        all.add(new OpenLoopConnection(this, wire, spec.transactionsPerConnection(), firstDue, intervalNanos));
      } else {
        all.add(new ClosedLoopConnection(this, wire, spec.transactionsPerConnection()));
      }
    }
  }

  /**
   * Starts on the loop's thread. The first connects are paced over the time before the clock
   * starts, so that they do not arrive at the server's accept queue as one burst.
   */
  void start(long paceNanos) {
    loop.execute(() -> {
      long step = all.isEmpty() ? 0 : paceNanos / all.size();
      for (int i = 0; i < all.size(); i++) {
        LoadConnection c = all.get(i);
        if (i == 0 || step == 0) {
          c.connect();
        } else {
          loop.schedule(c::connect, i * step, TimeUnit.NANOSECONDS);
        }
      }
      long timeoutNanos = spec.timeout().toNanos();
      long sweepMillis = Math.max(10, Math.min(250, spec.timeout().toMillis() / 4));
      timers.add(loop.scheduleAtFixedRate(() -> {
        long now = System.nanoTime();
        for (LoadConnection c : all) {
          c.checkTimeout(now, timeoutNanos);
        }
      }, sweepMillis, sweepMillis, TimeUnit.MILLISECONDS));
      if (spec.openLoop()) {
        timers.add(loop.scheduleAtFixedRate(() -> {
          long now = System.nanoTime();
          for (LoadConnection c : all) {
            ((OpenLoopConnection) c).tick(now);
          }
        }, TICK_MICROS, TICK_MICROS, TimeUnit.MICROSECONDS));
      }
    });
  }

  /**
   * A new channel for {@code c}, connecting: TCP_NODELAY (Netty's default), SO_LINGER 0 so that
   * closing resets instead of leaving TIME_WAIT behind, no connect timer (the sweep times out).
   */
  Channel connect(LoadConnection c) {
    Channel ch = transport.newChannel(address.getAddress());
    ch.config().setConnectTimeoutMillis(0);
    ((SocketChannelConfig) ch.config()).setSoLinger(0);
    ch.pipeline().addLast(c);
    ChannelFuture registered = loop.register(ch);
    if (registered.isDone()) {
      connectRegistered(registered, c);
    } else {
      registered.addListener(f -> connectRegistered((ChannelFuture) f, c));
    }
    return ch;
  }

  private void connectRegistered(ChannelFuture registered, LoadConnection c) {
    if (registered.isSuccess()) {
      registered.channel().connect(address).addListener(c);
    } else {
      c.operationComplete(registered);
    }
  }

  void later(long nanos, Runnable action) {
    loop.schedule(action, nanos, TimeUnit.NANOSECONDS);
  }

  /** Whether an open-loop request due in the window still waits for its answer (asked from any thread). */
  boolean outstanding() {
    return loop.submit(() -> all.stream().anyMatch(c -> c instanceof OpenLoopConnection o && o.outstanding()))
        .syncUninterruptibly().getNow();
  }

  /**
   * Stops on the loop's thread: no more connects, every open channel closed, and open-loop requests
   * due in the window that never got their answer counted.
   */
  void stop() {
    loop.submit(() -> {
      timers.forEach(t -> t.cancel(false));
      all.forEach(LoadConnection::stop);
      for (LoadConnection c : all) {
        if (c instanceof OpenLoopConnection o) {
          stats.unanswered(o.unanswered());
        }
      }
    }).syncUninterruptibly();
  }
}
