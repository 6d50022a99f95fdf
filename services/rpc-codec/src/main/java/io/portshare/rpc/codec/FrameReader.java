package io.portshare.rpc.codec;

import java.io.DataInput;
import java.io.IOException;

/** Reads RPC frames from a blocking stream, as a plain socket client in any language would. */
public final class FrameReader {

  private FrameReader() {}

  /**
   * Reads one frame from {@code in} and returns its payload.
   *
   * @throws java.io.EOFException when the stream ends before the frame does
   * @throws IOException when the header declares more than {@code maxPayload}: nothing of the payload is read
   */
  public static byte[] readPayload(DataInput in, int maxPayload) throws IOException {
    int header = in.readInt();
    int frameLength = RpcFrame.frameLength(header, maxPayload);
    if (frameLength < 0) {
      throw new IOException(RpcFrame.tooLong(header, maxPayload));
    }
    byte[] payload = new byte[frameLength - RpcFrame.HEADER_LENGTH];
    in.readFully(payload);
    return payload;
  }
}
