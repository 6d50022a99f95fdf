package io.portshare.rpc.netsocket;

import io.portshare.rpc.client.Frames;
import io.vertx.core.buffer.Buffer;

/**
 * Finds RPC frames (4-byte big-endian length, then that many payload bytes) in the Buffers a
 * {@code NetSocket} hands over, and passes on the byte ranges that are whole frames, in order, for
 * the echo to write back as slices.
 *
 * <p>Hand-written rather than Vert.x's {@code RecordParser} in fixed-size mode: that parser copies
 * every record out with {@code Buffer.getBuffer} (a new array per header and per payload, two per
 * frame) and appends any leftover to a buffer of its own, and the echo would then write header and
 * payload apart. Here a read's Buffer, which Vert.x has already copied off the pooled read buffer
 * and which nothing else touches afterwards, is answered from in place: the whole frames of one
 * read leave as one range, and a header cut by the end of a read is kept in an int. A frame cut by
 * the end of a read is kept as references to the reads that hold it, no bytes copied, until it is
 * complete; only a frame cut more than {@link #MAX_PIECES} times (a client trickling bytes) is
 * copied into one buffer, so a trickle cannot make the list of pieces grow without bound.
 *
 * <p>Not thread-safe: one parser per connection, used on that connection's event loop.
 */
public final class FrameParser {

  /** Receives the bytes to answer: {@code source[from, to)}, valid only during the call. */
  @FunctionalInterface
  public interface Answers {
    void answer(Buffer source, int from, int to);
  }

  static final int MAX_PIECES = 16;

  private final int maxPayload;
  /** Header bytes of the current frame seen so far (0: at a frame boundary; 4: in its payload). */
  private int headerSeen;
  private int header;
  private int payloadLeft;
  /** The current frame's bytes from earlier reads, in order; or all of them in {@link #copied}. */
  private final Buffer[] pieces = new Buffer[MAX_PIECES];
  private final int[] pieceFrom = new int[MAX_PIECES];
  private final int[] pieceTo = new int[MAX_PIECES];
  private int pieceCount;
  private Buffer copied;
  private int framesInLastFeed;

  /** @param maxPayload the largest payload accepted; a larger declared length is a protocol error */
  public FrameParser(int maxPayload) {
    if (maxPayload < 0 || maxPayload > Integer.MAX_VALUE - Frames.HEADER_LENGTH) {
      throw new IllegalArgumentException("max payload out of range: " + maxPayload);
    }
    this.maxPayload = maxPayload;
  }

  /**
   * Consumes {@code in}, handing {@code answers} every frame it completes, whole frames next to
   * each other as one range.
   *
   * @return false when a frame declares a length above the maximum: the stream cannot be trusted
   *     past that point and the caller must close it (the frames before it were handed over)
   */
  public boolean feed(Buffer in, Answers answers) {
    framesInLastFeed = 0;
    int length = in.length();
    int pos = 0;
    int runStart = 0;
    // Where the frame being read starts in this buffer (0 when it began in an earlier one).
    int frameStart = 0;
    while (pos < length) {
      if (headerSeen < Frames.HEADER_LENGTH) {
        if (headerSeen == 0 && length - pos >= Frames.HEADER_LENGTH) {
          header = in.getInt(pos);
          pos += Frames.HEADER_LENGTH;
          headerSeen = Frames.HEADER_LENGTH;
        } else {
          header = header << 8 | in.getUnsignedByte(pos++);
          headerSeen++;
        }
        if (headerSeen < Frames.HEADER_LENGTH) {
          continue;
        }
        long declared = Integer.toUnsignedLong(header);
        if (declared > maxPayload) {
          emit(in, runStart, frameStart, answers);
          dropPieces();
          return false;
        }
        payloadLeft = (int) declared;
      }
      int take = Math.min(payloadLeft, length - pos);
      pos += take;
      payloadLeft -= take;
      if (payloadLeft == 0) {
        // A frame completes: what earlier reads held of it goes first, the rest is in this run.
        headerSeen = 0;
        header = 0;
        framesInLastFeed++;
        flushPieces(answers);
        frameStart = pos;
      }
    }
    emit(in, runStart, frameStart, answers);
    if (frameStart < length) {
      keep(in, frameStart, length);
    }
    return true;
  }

  /** Frames completed by the last {@link #feed}. */
  public int framesInLastFeed() {
    return framesInLastFeed;
  }

  /** True when no frame is half received: stopping here answers everything that arrived. */
  public boolean atFrameBoundary() {
    return headerSeen == 0;
  }

  private static void emit(Buffer in, int from, int to, Answers answers) {
    if (to > from) {
      answers.answer(in, from, to);
    }
  }

  private void keep(Buffer in, int from, int to) {
    if (copied == null && pieceCount == MAX_PIECES) {
      int held = to - from;
      for (int i = 0; i < pieceCount; i++) {
        held += pieceTo[i] - pieceFrom[i];
      }
      copied = Buffer.buffer(held * 2);
      for (int i = 0; i < pieceCount; i++) {
        copied.appendBuffer(pieces[i], pieceFrom[i], pieceTo[i] - pieceFrom[i]);
      }
      clearPieces();
    }
    if (copied != null) {
      copied.appendBuffer(in, from, to - from);
      return;
    }
    pieces[pieceCount] = in;
    pieceFrom[pieceCount] = from;
    pieceTo[pieceCount] = to;
    pieceCount++;
  }

  private void flushPieces(Answers answers) {
    if (copied != null) {
      answers.answer(copied, 0, copied.length());
      copied = null;
      return;
    }
    for (int i = 0; i < pieceCount; i++) {
      answers.answer(pieces[i], pieceFrom[i], pieceTo[i]);
    }
    clearPieces();
  }

  private void dropPieces() {
    copied = null;
    clearPieces();
  }

  private void clearPieces() {
    for (int i = 0; i < pieceCount; i++) {
      pieces[i] = null;
    }
    pieceCount = 0;
  }
}
