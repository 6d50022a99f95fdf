package io.portshare.web.internal;

import io.netty.channel.DefaultFileRegion;
import io.netty.channel.FileRegion;
import io.netty.util.AbstractReferenceCounted;
import io.netty.util.ReferenceCounted;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A large file kept open with its cache entry, as nginx's open_file_cache keeps descriptors: each
 * sendfile answer is a {@link #region} of it (the own engine) or {@link #lend lent} it (portshare-web's
 * handler on Vert.x), so a hit makes no open(2). Counted by reference: the cache holds one until it
 * forgets the entry (evicted, changed on disk, closed), each answer one until it is sent; the
 * descriptor is closed when the last goes, so an answer in flight never finds it closed.
 */
public final class OpenFile extends AbstractReferenceCounted {

  private final FileChannel channel;

  private OpenFile(FileChannel channel) {
    this.channel = channel;
  }

  /** Opens {@code path} for reading. Blocking. */
  static OpenFile open(Path path) throws IOException {
    return new OpenFile(FileChannel.open(path, StandardOpenOption.READ));
  }

  /** Whether the descriptor is still open. */
  public boolean isOpen() {
    return channel.isOpen();
  }

  /**
   * {@code length} bytes from {@code offset}, for sendfile(2): a {@link DefaultFileRegion} on this
   * descriptor (Netty's epoll transport sends a DefaultFileRegion by the descriptor of its channel)
   * that, once sent or failed, gives back its reference instead of closing the channel.
   */
  public FileRegion region(long offset, long length) {
    retain();
    return new Region(this, offset, length);
  }

  /**
   * The descriptor itself, lent to one answer that a library sends from a {@link FileChannel}
   * (Vert.x's {@code sendFile(FileChannel, offset, length)}, which wraps it in a region of its own that
   * never closes it): counted as a {@link #region} is, so the file stays open until that answer gives
   * it back with {@link #release()} once its write is done or failed.
   */
  public FileChannel lend() {
    retain();
    return channel;
  }

  @Override
  protected void deallocate() {
    try {
      channel.close();
    } catch (IOException ignored) {
      // a read-only descriptor: nothing was left to write back
    }
  }

  @Override
  public ReferenceCounted touch(Object hint) {
    return this;
  }

  private static final class Region extends DefaultFileRegion {
    private final OpenFile file;

    Region(OpenFile file, long offset, long length) {
      super(file.channel, offset, length);
      this.file = file;
    }

    @Override
    protected void deallocate() {
      file.release(); // not DefaultFileRegion's: that would close the channel every answer shares
    }
  }
}
