package io.portshare.rpc.netsocket;

import io.portshare.rpc.QuietTicks;
import io.portshare.rpc.RpcMetrics;
import io.portshare.runtime.LingeringClose;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetSocket;
import java.util.function.LongSupplier;

/**
 * The echo of one {@code NetSocket}: the ranges {@link FrameParser} finds whole are written back
 * as slices of the Buffer they arrived in, in order; Vert.x flushes once per read. While the
 * socket's write queue is full, reading is paused until it drains.
 *
 * <p>Closing differs from the own engine in one way: a {@code NetSocket} cannot half-close, so
 * after a rejected frame it cannot send FIN and then linger as {@code LingeringClose} does. It
 * writes the answers before the bad frame, then reads and drops what the peer still sends until a
 * tick passes with nothing read (or the linger time ends), and closes then: the peer's bytes are
 * read before the close, so the close is a FIN, not a reset that could throw answers away.
 */
final class EchoConnection implements FrameParser.Answers {

  private static final long LINGER_TICKS = LingeringClose.LINGER.toMillis() / QuietTicks.SETTLE_MILLIS;

  private final Vertx vertx;
  private final NetSocket socket;
  private final FrameParser parser;
  private final RpcMetrics metrics;
  private final long idleNanos;
  private final LongSupplier clock;
  private final long lifetimeMillis;
  private boolean paused;
  private boolean draining;
  /** No more answers: the connection is on its way to closed. */
  private boolean closing;
  private boolean closedHere;
  private long bytesReceived;
  /** While draining or lingering after a rejected frame: whether the peer has gone quiet. */
  private final QuietTicks ticks = new QuietTicks();
  private long lingerTicks;
  /** When the last bytes arrived, to tell an idle close (Vert.x's) from the peer's; only with --idle-timeout. */
  private long lastReadNanos;
  /** The last answer written: after a rejected frame, reading resumes once it is out. */
  private Future<Void> lastWrite;
  private long ticker = -1;
  private long ageTimer = -1;

  EchoConnection(Vertx vertx, NetSocket socket, int maxPayload, RpcMetrics metrics, long idleMillis,
      long lifetimeMillis) {
    this(vertx, socket, maxPayload, metrics, idleMillis, lifetimeMillis, System::nanoTime);
  }

  /** As the other, reading {@code clock} ({@link System#nanoTime}'s kind) where it reads the time: a test's. */
  EchoConnection(Vertx vertx, NetSocket socket, int maxPayload, RpcMetrics metrics, long idleMillis,
      long lifetimeMillis, LongSupplier clock) {
    this.clock = clock;
    this.vertx = vertx;
    this.socket = socket;
    this.parser = new FrameParser(maxPayload);
    this.metrics = metrics;
    this.idleNanos = idleMillis * 1_000_000;
    this.lifetimeMillis = lifetimeMillis;
  }

  void start() {
    if (idleNanos > 0) {
      lastReadNanos = clock.getAsLong();
    }
    socket.handler(this::read);
    socket.drainHandler(v -> resumeReading());
    // Vert.x 5 calls it when the server shuts down gracefully; it closes the socket itself when
    // the drain timeout ends, whatever is in flight.
    socket.shutdownHandler(v -> startDrain());
    socket.exceptionHandler(this::failed);
    socket.closeHandler(v -> closed());
    if (lifetimeMillis > 0) {
      ageTimer = vertx.setTimer(lifetimeMillis, id -> {
        ageTimer = -1;
        startDrain();
      });
    }
  }

  private void read(Buffer in) {
    int n = in.length();
    bytesReceived += n;
    // One clock read per read, not per frame: for the frame latency, and for closed() to tell an idle
    // close (Vert.x's idle handler does the closing) from another.
    long readAt = clock.getAsLong();
    lastReadNanos = readAt;
    if (closing) {
      return;
    }
    metrics.countReceived(n);
    boolean ok = parser.feed(in, this);
    int frames = parser.framesInLastFeed();
    metrics.countAnswered(frames);
    if (frames > 0) {
      // From the read to the echoes handed to the socket, which Vert.x flushes as this read's handling
      // ends: the own engine's "read to flush", on Vert.x's API.
      metrics.recordFrames(clock.getAsLong() - readAt, frames);
    }
    if (!ok) {
      reject();
    } else if (socket.writeQueueFull()) {
      // The peer reads slower than it writes: stop reading until the answers drain.
      socket.pause();
      paused = true;
      ticks.paused();
    }
  }

  @Override
  public void answer(Buffer source, int from, int to) {
    metrics.countSent(to - from);
    lastWrite = socket.write(from == 0 && to == source.length() ? source : source.slice(from, to));
  }

  private void resumeReading() {
    if (paused && !closing) {
      paused = false;
      socket.resume();
    }
  }

  private void reject() {
    metrics.countRejectedFrame();
    closing = true;
    cancelTimers();
    // The answers before the bad frame go out first; until they have, nothing more is read, so a
    // peer that never reads is left to the idle timeout. Then its bytes are read and dropped until
    // it is quiet, so the close is no reset.
    socket.pause();
    paused = true;
    Future<Void> written = lastWrite == null ? Future.succeededFuture() : lastWrite;
    written.onComplete(ar -> {
      if (!ar.succeeded()) {
        closeHere();
        return;
      }
      paused = false;
      socket.resume();
      ticks.start(bytesReceived, false);
      ticker = vertx.setPeriodic(QuietTicks.SETTLE_MILLIS, QuietTicks.SETTLE_MILLIS, id -> lingerTick());
    });
  }

  private void lingerTick() {
    // Reading stays on while lingering: read() drops what arrives once closing.
    if (ticks.quiet(bytesReceived, true) || ++lingerTicks >= LINGER_TICKS) {
      closeHere();
    }
  }

  /**
   * The server shuts down, or the connection has lived --max-connection-age: answers what has been
   * received, then closes at the first frame boundary after a tick with nothing read.
   */
  private void startDrain() {
    if (draining || closing) {
      return;
    }
    draining = true;
    ticks.start(bytesReceived, paused);
    ticker = vertx.setPeriodic(QuietTicks.SETTLE_MILLIS, QuietTicks.SETTLE_MILLIS, id -> drainTick());
  }

  private void drainTick() {
    if (ticks.quiet(bytesReceived, !paused) && !closing && parser.atFrameBoundary()) {
      metrics.countDrainClosed();
      closing = true;
      closeHere();
    }
  }

  /** Vert.x writes what is queued, then closes. */
  private void closeHere() {
    closing = true;
    closedHere = true;
    cancelTimers();
    socket.close();
  }

  private void failed(Throwable cause) {
    metrics.countConnectionError(cause);
    closeHere();
  }

  private void closed() {
    if (!closedHere && idleNanos > 0 && clock.getAsLong() - lastReadNanos >= idleNanos) {
      metrics.countIdleClosed();
    }
    closing = true;
    cancelTimers();
  }

  private void cancelTimers() {
    if (ticker != -1) {
      vertx.cancelTimer(ticker);
      ticker = -1;
    }
    if (ageTimer != -1) {
      vertx.cancelTimer(ageTimer);
      ageTimer = -1;
    }
  }
}
