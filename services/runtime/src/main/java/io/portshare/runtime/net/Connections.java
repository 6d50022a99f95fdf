package io.portshare.runtime.net;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import java.util.concurrent.atomic.LongAdder;

/**
 * The service's connections, counted by the runtime's transport as each accepted channel is
 * registered on its event loop, and uncounted when it closes: services count nothing themselves.
 * {@code portshare_connections_accepted_total{loop}} shows how the modes balance,
 * {@code portshare_connections_open} what a drain waits for.
 */
public final class Connections {

  private final LongAdder open = new LongAdder();
  /** One listener object for every close: nothing is made per connection but its registration. */
  private final ChannelFutureListener uncount = f -> open.decrement();
  private final Counter[] accepted;
  private final Counter[] warmUp;
  /** True until the runtime's warm-up before ready has ended: connections meanwhile are its own. */
  private volatile boolean warmingUp;

  public Connections(MeterRegistry registry, String service, int loops, boolean warmingUp) {
    this.warmingUp = warmingUp;
    accepted = new Counter[loops];
    warmUp = new Counter[loops];
    for (int i = 0; i < loops; i++) {
      accepted[i] = Counter.builder("portshare.connections.accepted")
          .description("Connections accepted, per event loop (shows how modes balance)")
          .tag("service", service)
          .tag("loop", Integer.toString(i))
          .register(registry);
      warmUp[i] = Counter.builder("portshare.warmup.connections")
          .description("Connections of the warm-up before ready, per event loop (not in connections.accepted)")
          .tag("service", service)
          .tag("loop", Integer.toString(i))
          .register(registry);
    }
    Gauge.builder("portshare.connections.open", open, LongAdder::sum)
        .description("Connections open now")
        .tag("service", service)
        .register(registry);
  }

  /** On the event loop {@code loop} that {@code channel} was just registered on. */
  void accepted(Channel channel, int loop) {
    (warmingUp ? warmUp : accepted)[loop].increment();
    open.increment();
    channel.closeFuture().addListener(uncount);
  }

  public void warmUpEnded() {
    warmingUp = false;
  }

  /** Warm-up connections event loop {@code loop} has accepted. */
  public long warmUpConnections(int loop) {
    return (long) warmUp[loop].count();
  }

  public long open() {
    return open.sum();
  }
}
