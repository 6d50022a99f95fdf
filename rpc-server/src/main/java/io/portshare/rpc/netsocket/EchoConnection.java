package io.portshare.rpc.netsocket;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.portshare.rpc.FrameRun;
import io.portshare.rpc.QuietTicks;
import io.portshare.rpc.RpcMetrics;
import io.portshare.rpc.codec.FrameDecoder;
import io.portshare.rpc.codec.RpcFrame;
import io.portshare.runtime.LingeringClose;
import io.portshare.runtime.NettyAccess;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetSocket;
import java.util.function.LongSupplier;

/**
 * The echo of one {@code NetSocket}: each read's Buffer goes through the codec's
 * {@link FrameDecoder} as a ByteBuf of its bytes, as the runtime hands them
 * ({@link NettyAccess.BufferBytes}: the ByteBuf under it, or a copy on Vert.x's public API), and the
 * frames it finds whole leave as slices of that Buffer, those next to each other in one read as one,
 * in order; Vert.x flushes once per read. A frame cut across reads is completed in the decoder's
 * copy, an unpooled heap buffer that needs no release, and leaves as a Buffer of it. While the
 * socket's write queue is full, reading is paused until it drains.
 *
 * <p>Closing differs from the own engine in one way: a {@code NetSocket} cannot half-close, so
 * after a rejected frame it cannot send FIN and then linger as {@code LingeringClose} does. It
 * writes the answers before the bad frame, then reads and drops what the peer still sends until a
 * tick passes with nothing read (or the linger time ends), and closes then: the peer's bytes are
 * read before the close, so the close is a FIN, not a reset that could throw answers away.
 */
final class EchoConnection implements FrameDecoder.FrameHandler, FrameRun.Writer {

  private static final long LINGER_TICKS = LingeringClose.LINGER.toMillis() / QuietTicks.SETTLE_MILLIS;
  /**
   * Where a frame cut across reads is kept: Vert.x writes a Buffer over another library's ByteBuf
   * without releasing it, so the kept frame must be one the garbage collector can take back.
   */
  private static final ByteBufAllocator CUT_FRAMES = new UnpooledByteBufAllocator(false, true);

  private final Vertx vertx;
  private final NetSocket socket;
  private final NettyAccess.BufferBytes bufferBytes;
  private final FrameDecoder decoder;
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
  /** The read being decoded, the decoder's ByteBuf of it, the run of whole frames in it not yet written. */
  private Buffer current;
  private ByteBuf currentBytes;
  private final FrameRun run = new FrameRun(this);
  private int framesRead;

  EchoConnection(Vertx vertx, NetSocket socket, NettyAccess.BufferBytes bufferBytes, int maxPayload,
      RpcMetrics metrics, long idleMillis, long lifetimeMillis) {
    this(vertx, socket, bufferBytes, maxPayload, metrics, idleMillis, lifetimeMillis, System::nanoTime);
  }

  /** As the other, reading {@code clock} ({@link System#nanoTime}'s kind) where it reads the time: a test's. */
  EchoConnection(Vertx vertx, NetSocket socket, NettyAccess.BufferBytes bufferBytes, int maxPayload,
      RpcMetrics metrics, long idleMillis, long lifetimeMillis, LongSupplier clock) {
    this.clock = clock;
    this.vertx = vertx;
    this.socket = socket;
    this.bufferBytes = bufferBytes;
    this.decoder = new FrameDecoder(maxPayload, CUT_FRAMES);
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
    ByteBuf bytes = bufferBytes.byteBuf(in);
    current = in;
    currentBytes = bytes;
    run.begin(bytes.readerIndex());
    framesRead = 0;
    boolean ok;
    try {
      ok = decoder.decode(bytes, this);
      run.write();
    } finally {
      current = null;
      currentBytes = null;
    }
    int frames = framesRead;
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
  public void onFrame(ByteBuf buf, int frameIndex, int payloadLength) {
    framesRead++;
    int frameLength = RpcFrame.HEADER_LENGTH + payloadLength;
    if (buf == currentBytes) {
      run.add(frameIndex, frameLength);
    } else {
      // Completed in the decoder's copy, which it releases once this returns.
      write(bufferBytes.buffer(buf, frameIndex, frameLength));
    }
  }

  /**
   * Writes the run as a slice of the read's Buffer (the Buffer itself when it is all frames); the
   * Buffer's bytes end where the decoder's ByteBuf's end, whose index 0 may lie before the Buffer's.
   */
  @Override
  public void writeRun(int from, int to) {
    int offset = current.length() - currentBytes.writerIndex();
    int start = from + offset;
    int end = to + offset;
    write(start == 0 && end == current.length() ? current : current.slice(start, end));
  }

  private void write(Buffer answer) {
    metrics.countSent(answer.length());
    lastWrite = socket.write(answer);
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
    if (ticks.quiet(bytesReceived, !paused) && !closing && decoder.atFrameBoundary()) {
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
    decoder.release();
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
