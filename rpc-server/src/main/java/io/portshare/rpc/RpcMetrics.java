package io.portshare.rpc;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.portshare.runtime.LatencyHistogram;
import java.io.IOException;
import java.util.function.ToDoubleFunction;

/**
 * The counters of one event loop. Only that loop writes them, as plain fields: a scrape may read a
 * value a few microseconds old, and the hot path pays one add per read instead of an atomic (the
 * methods below are that add, inlined; nothing is boxed). Public for the Vert.x engine
 * ({@code io.portshare.rpc.netsocket}), which counts in the same meters.
 */
public final class RpcMetrics {

  private long transactions;
  private long bytesReceived;
  private long bytesSent;
  private long framesRejected;
  private long resets;
  private long otherErrors;
  private long idleClosed;
  private long drainClosed;
  /** Each frame's time from the read that completed it to the flush of its echo. */
  private final LatencyHistogram frameSeconds;

  /** Counters in no registry: for warm-up traffic, which the runtime counts apart. */
  public RpcMetrics() {
    frameSeconds = new LatencyHistogram();
  }

  public RpcMetrics(MeterRegistry registry, String loop) {
    frameSeconds = LatencyHistogram.register(registry, "portshare_rpc_frame_seconds",
        "Time from the read that completed a frame to the flush that wrote its echo", "service", "rpc", "loop", loop);
    counter(registry, "portshare.rpc.transactions", "Frames answered", loop, m -> m.transactions);
    counter(registry, "portshare.rpc.received.bytes", "Bytes read from clients", loop, m -> m.bytesReceived);
    counter(registry, "portshare.rpc.sent.bytes", "Bytes written to clients", loop, m -> m.bytesSent);
    counter(registry, "portshare.rpc.frames.rejected", "Frames whose length was above --max-frame (connection closed)",
        loop, m -> m.framesRejected);
    FunctionCounter.builder("portshare.rpc.connection.errors", this, m -> m.resets)
        .description("Connections ended by a reset or broken pipe (normal for load generators), or another error")
        .tag("service", "rpc").tag("loop", loop).tag("kind", "reset").register(registry);
    FunctionCounter.builder("portshare.rpc.connection.errors", this, m -> m.otherErrors)
        .description("Connections ended by a reset or broken pipe (normal for load generators), or another error")
        .tag("service", "rpc").tag("loop", loop).tag("kind", "other").register(registry);
    counter(registry, "portshare.rpc.idle.closed", "Connections closed by --idle-timeout", loop, m -> m.idleClosed);
    counter(registry, "portshare.rpc.drain.closed", "Connections closed by the drain after their last answer",
        loop, m -> m.drainClosed);
  }

  private void counter(MeterRegistry registry, String name, String help, String loop,
      ToDoubleFunction<RpcMetrics> f) {
    FunctionCounter.builder(name, this, f).description(help).tag("service", "rpc").tag("loop", loop).register(registry);
  }

  public void countReceived(long bytes) {
    bytesReceived += bytes;
  }

  public void countSent(long bytes) {
    bytesSent += bytes;
  }

  public void countAnswered() {
    transactions++;
  }

  public void countAnswered(long frames) {
    transactions += frames;
  }

  /** {@code frames} frames answered {@code nanos} after the read that completed them. */
  public void recordFrames(long nanos, long frames) {
    frameSeconds.record(nanos, frames);
  }

  public void countRejectedFrame() {
    framesRejected++;
  }

  /** A connection ended by {@code cause}. */
  public void countConnectionError(Throwable cause) {
    // Resets and broken pipes are how many clients hang up: count them, never log each one.
    if (cause instanceof IOException) {
      resets++;
    } else {
      otherErrors++;
    }
  }

  public void countIdleClosed() {
    idleClosed++;
  }

  public void countDrainClosed() {
    drainClosed++;
  }

  /** Frames answered. */
  public long transactions() {
    return transactions;
  }

  public long bytesReceived() {
    return bytesReceived;
  }

  public long bytesSent() {
    return bytesSent;
  }

  public long framesRejected() {
    return framesRejected;
  }

  public long resets() {
    return resets;
  }

  public long otherErrors() {
    return otherErrors;
  }

  public long idleClosed() {
    return idleClosed;
  }

  public long drainClosed() {
    return drainClosed;
  }
}
