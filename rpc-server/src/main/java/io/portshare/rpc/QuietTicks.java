package io.portshare.rpc;

/**
 * How a draining connection tells that its peer has gone quiet, on either engine: a tick every
 * {@link #SETTLE_MILLIS} with nothing read, reading on the whole tick. Reading that resumed a moment
 * ago has not yet fetched what waits in the socket, so a tick in which reading was off at any point
 * proves nothing. Public for the Vert.x engine ({@code io.portshare.rpc.netsocket}).
 *
 * <p>Not thread-safe: one per connection, used on its event loop.
 */
public final class QuietTicks {

  /**
   * One turn of the event loop is enough for bytes already in the socket to be read, and 10 ms is
   * far more than one turn.
   */
  public static final long SETTLE_MILLIS = 10;

  private long receivedAtTick;
  /** Reading was off at some point since the last tick, so that tick's quiet proves nothing. */
  private boolean pausedSinceTick;

  /** Starts counting ticks from here: {@code received} bytes so far, reading off or on now. */
  public void start(long received, boolean paused) {
    receivedAtTick = received;
    pausedSinceTick = paused;
  }

  /** Reading was turned off (the peer reads slower than it writes). */
  public void paused() {
    pausedSinceTick = true;
  }

  /** At a tick: whether nothing was read since the last one with reading on throughout. */
  public boolean quiet(long received, boolean reading) {
    boolean quiet = received == receivedAtTick && !pausedSinceTick && reading;
    receivedAtTick = received;
    pausedSinceTick = !reading;
    return quiet;
  }
}
