package io.portshare.rpc.codec;

/**
 * The RPC frame: a 4-byte big-endian unsigned length N, then N payload bytes. The server answers
 * each frame with the same frame, in order; there is nothing else to the protocol. A declared length
 * above the receiver's maximum is a protocol error: the stream cannot be trusted past it.
 */
public final class RpcFrame {

  public static final int HEADER_LENGTH = 4;

  /** The default largest payload a server accepts: 1 MiB. */
  public static final int DEFAULT_MAX_PAYLOAD = 1 << 20;

  /** The largest maximum there can be: a whole frame must fit in an int. */
  public static final int LARGEST_MAX_PAYLOAD = Integer.MAX_VALUE - HEADER_LENGTH;

  private RpcFrame() {}

  /** {@code maxPayload} itself when a frame of it fits in an int; otherwise a one-line error. */
  public static int checkMaxPayload(int maxPayload) {
    if (maxPayload < 0 || maxPayload > LARGEST_MAX_PAYLOAD) {
      throw new IllegalArgumentException(
          "max payload " + maxPayload + " out of range: 0 to " + LARGEST_MAX_PAYLOAD);
    }
    return maxPayload;
  }

  /**
   * The length of the whole frame whose header reads {@code header} (as the int it is on the wire,
   * so a length past 2^31 is seen as the unsigned value it is), or -1 when its payload is above
   * {@code maxPayload}.
   */
  public static int frameLength(int header, int maxPayload) {
    long declared = Integer.toUnsignedLong(header);
    return declared > maxPayload ? -1 : HEADER_LENGTH + (int) declared;
  }

  /** The one line saying a header declared more than the maximum. */
  public static String tooLong(int header, int maxPayload) {
    return "frame length " + Integer.toUnsignedLong(header) + " above the max payload " + maxPayload;
  }
}
