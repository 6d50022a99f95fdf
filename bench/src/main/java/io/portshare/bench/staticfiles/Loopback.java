package io.portshare.bench.staticfiles;

/**
 * A fresh loopback destination per run, 127.0.0.2 to 127.0.0.254 in turn: a run of one request
 * per connection leaves tens of thousands of connections in TIME_WAIT towards its destination,
 * and the next run must not share their address and port.
 */
public final class Loopback {

  private int next;

  /** {@code first}: the last octet to start from, 2..254. */
  public Loopback(int first) {
    if (first < 2 || first > 254) {
      throw new IllegalArgumentException("loopback octet " + first + " outside 2..254");
    }
    next = first;
  }

  public synchronized String next() {
    String a = "127.0.0." + next;
    next = next == 254 ? 2 : next + 1;
    return a;
  }
}
