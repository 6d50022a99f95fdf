package io.portshare.runtime.admin;

import io.vertx.core.Context;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Whether the service's event loops still run: each verticle's loop stamps the time from a
 * periodic timer on its own context, and a loop whose last stamp is older than the limit is stuck
 * (blocked, or spinning on one task). The admin server answers liveness from this, on its own
 * event loop, so that a stuck service loop makes the pod's liveness probe fail.
 */
public final class EventLoopBeats {

  private final Duration limit;
  private final Duration period;
  private final List<Beat> beats = new CopyOnWriteArrayList<>();

  /** One loop's last stamp. */
  private record Beat(String name, AtomicLong lastNanos) {}

  public EventLoopBeats(Duration limit) {
    this.limit = limit;
    // Several beats per limit, so one late timer is not yet a stale loop.
    this.period = Duration.ofMillis(Math.max(10, limit.toMillis() / 5));
  }

  /** Starts beating on the verticle's context: called once per verticle. */
  public void watch(String name, Context context) {
    Beat beat = new Beat(name, new AtomicLong(System.nanoTime()));
    beats.add(beat);
    context.runOnContext(x -> context.owner().setPeriodic(period.toMillis(), id -> beat.lastNanos.set(System.nanoTime())));
  }

  /** The loops that have not beaten within the limit, with how long ago they last did; empty when all run. */
  public List<String> stale() {
    long now = System.nanoTime();
    List<String> out = new ArrayList<>();
    for (Beat b : beats) {
      long ago = now - b.lastNanos.get();
      if (ago > limit.toNanos()) {
        out.add(b.name + " last ran " + Duration.ofNanos(ago).toMillis() + " ms ago");
      }
    }
    return out;
  }

  Duration limit() {
    return limit;
  }
}
