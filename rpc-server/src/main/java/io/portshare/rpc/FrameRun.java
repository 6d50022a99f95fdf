package io.portshare.rpc;

/**
 * The whole frames of the read being decoded that are not yet written, gathered while each starts
 * where the last ended, so that frames next to each other leave as one write: both engines' echo.
 * Indexes are those of the buffer the decoder reads; the engine writes a run its own way.
 *
 * <p>Per frame it compares and adds two ints, in a final class whose calls the JIT inlines; the
 * engine's {@link Writer} is called once per run, that is once per read with whole frames in it
 * (the decoder hands a read's whole frames one after the other).
 */
public final class FrameRun {

  /** Writes bytes {@code from} (inclusive) to {@code to} (exclusive) of the buffer being decoded. */
  public interface Writer {
    void writeRun(int from, int to);
  }

  private final Writer writer;
  private int start;
  private int end;

  public FrameRun(Writer writer) {
    this.writer = writer;
  }

  /** A new read whose first byte not yet decoded is at {@code index}. */
  public void begin(int index) {
    start = index;
    end = index;
  }

  /**
   * Adds the whole frame of {@code length} bytes at {@code index}; the run so far is written first if
   * the frame does not start where it ends.
   */
  public void add(int index, int length) {
    if (index != end) {
      write();
      start = index;
      end = index;
    }
    end += length;
  }

  /** Writes the run gathered so far, if any. */
  public void write() {
    if (end > start) {
      writer.writeRun(start, end);
      start = end;
    }
  }
}
