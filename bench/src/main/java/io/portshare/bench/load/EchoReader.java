package io.portshare.bench.load;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;

/** An RPC reply is the request frame again, byte for byte. */
final class EchoReader extends ReplyReader {

  private final ByteBuf frame;
  private final int frameLength;
  /** Bytes of the reply being read that have arrived so far. */
  private int received;

  EchoReader(ByteBuf frame) {
    this.frame = frame;
    this.frameLength = frame.readableBytes();
  }

  @Override
  int read(ByteBuf buf, int index, int end) {
    int n = Math.min(end - index, frameLength - received);
    complete = false;
    if (!ByteBufUtil.equals(frame, frame.readerIndex() + received, buf, index, n)) {
      error = ErrorKind.WRONG_PAYLOAD;
      return n;
    }
    received += n;
    if (received == frameLength) {
      received = 0;
      complete = true;
    }
    return n;
  }

  @Override
  void reset() {
    received = 0;
    complete = false;
    error = null;
  }
}
