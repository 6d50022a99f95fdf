package io.portshare.statics;

import io.netty.channel.ChannelPipeline;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Set;

/**
 * The HTTP connections of one event loop: the handlers each gets on arrival (its request-head
 * clock, the {@link HeadGuard}, and the {@link ConnectionAgeLimit} when connections age out), and
 * the sweep that closes those whose request head has taken longer than the header timeout.
 */
final class OpenConnections {

  private final long headerTimeoutMillis;
  private final Set<HeadWatch> open = new HashSet<>();
  /** The meters timeouts and refused heads count in: warm-up ones before ready, then the service's. */
  private StaticMetrics metrics;

  OpenConnections(long headerTimeoutMillis, StaticMetrics metrics) {
    this.headerTimeoutMillis = headerTimeoutMillis;
    this.metrics = metrics;
  }

  /** From now on, new connections and timeouts count in these meters. */
  void countIn(StaticMetrics metrics) {
    this.metrics = metrics;
  }

  /**
   * Adds this connection's handlers to its pipeline, Vert.x's (the decoder, then "handler"):
   * {@code lifetimeNanos} 0 lets it live as long as its peer wants.
   */
  void add(ChannelPipeline pipeline, long lifetimeNanos) {
    HeadWatch watch = new HeadWatch(pipeline);
    pipeline.addBefore("handler", null, new HeadGuard(metrics));
    if (lifetimeNanos > 0) {
      pipeline.addBefore("handler", null, new ConnectionAgeLimit(lifetimeNanos));
    }
    open.add(watch);
    pipeline.channel().closeFuture().addListener(f -> open.remove(watch));
  }

  /** Closes every connection whose request head began more than the header timeout before {@code now}. */
  void sweep(long now) {
    for (Iterator<HeadWatch> i = open.iterator(); i.hasNext(); ) {
      HeadWatch w = i.next();
      if (w.overdue(now, headerTimeoutMillis)) {
        // Out of the set before the close, whose listener may run at once and remove it too.
        i.remove();
        w.headStartedAt = 0;
        metrics.headerTimeouts++;
        w.channel.close();
      }
    }
  }

  int size() {
    return open.size();
  }
}
