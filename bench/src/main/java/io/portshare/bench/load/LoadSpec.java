package io.portshare.bench.load;

import java.time.Duration;

/**
 * What one load run does: {@code connections} TCP connections to {@code host:port}, each doing
 * {@code transactionsPerConnection} request/response transactions of {@code payloadSize} bytes and
 * then reconnecting. {@code ratePerSecond == 0} is a closed loop (each connection sends its next
 * request when the reply arrives); above 0 it is an open loop at that total rate.
 */
public record LoadSpec(
    String host,
    int port,
    int connections,
    int transactionsPerConnection,
    int payloadSize,
    Duration warmup,
    Duration duration,
    long ratePerSecond,
    int eventLoops,
    Duration timeout) {

  public LoadSpec {
    if (connections < 1) {
      throw new IllegalArgumentException("connections must be at least 1, not " + connections);
    }
    if (transactionsPerConnection < 1) {
      throw new IllegalArgumentException("transactions per connection must be at least 1, not "
          + transactionsPerConnection);
    }
    if (payloadSize < 0 || payloadSize > 16 * 1024 * 1024) {
      throw new IllegalArgumentException("payload size must be 0..16777216 bytes, not " + payloadSize);
    }
    if (duration.isZero() || duration.isNegative()) {
      throw new IllegalArgumentException("duration must be positive, not " + duration);
    }
    if (warmup.isNegative()) {
      throw new IllegalArgumentException("warm-up must not be negative, not " + warmup);
    }
    if (ratePerSecond < 0) {
      throw new IllegalArgumentException("rate must not be negative, not " + ratePerSecond);
    }
    if (eventLoops < 1) {
      throw new IllegalArgumentException("event loops must be at least 1, not " + eventLoops);
    }
  }

  public boolean openLoop() {
    return ratePerSecond > 0;
  }

  public LoadSpec withTarget(String host, int port) {
    return new LoadSpec(host, port, connections, transactionsPerConnection, payloadSize, warmup, duration,
        ratePerSecond, eventLoops, timeout);
  }

  public LoadSpec withCell(int payloadSize, int transactionsPerConnection) {
    return new LoadSpec(host, port, connections, transactionsPerConnection, payloadSize, warmup, duration,
        ratePerSecond, eventLoops, timeout);
  }
}
