package io.portshare.bench.load;

import io.netty.buffer.ByteBuf;

/**
 * Reads the replies of one connection as their bytes arrive, in any split: {@link #read} takes
 * what it can of one reply and says how many bytes it used; after it, {@link #complete} tells
 * whether a reply ended there and {@link #error} whether the bytes were wrong. One per connection,
 * reused across its channels ({@link #reset}), so reading allocates nothing.
 */
abstract class ReplyReader {

  boolean complete;
  ErrorKind error;

  /** Bytes of {@code buf} from {@code index} to {@code end} that belong to the current reply. */
  abstract int read(ByteBuf buf, int index, int end);

  /** A new channel: nothing of a reply read yet. */
  abstract void reset();

  /** The channel closed in the middle of a reply: what that error is. */
  ErrorKind cutShort() {
    return ErrorKind.CLOSED;
  }
}
