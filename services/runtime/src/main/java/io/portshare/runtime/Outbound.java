package io.portshare.runtime;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.FileRegion;

/**
 * What a connection of a service's own pipeline has written and the socket has not yet taken: for
 * the timeouts and closes that must tell a stalled peer from a slow one. Netty keeps this in the
 * channel's outbound buffer, which only its {@code Unsafe} reaches; services read it here, in one
 * place, and touch no {@code Unsafe} themselves. On the connection's event loop only.
 */
public final class Outbound {

  private Outbound() {}

  /** Bytes written and not yet taken by the socket; 0 once everything is out, or once closed. */
  public static long pendingBytes(Channel connection) {
    ChannelOutboundBuffer out = connection.unsafe().outboundBuffer();
    return out == null ? 0 : out.totalPendingWriteBytes();
  }

  /** True when nothing written waits for the socket (a closed connection has nothing waiting). */
  public static boolean isEmpty(Channel connection) {
    ChannelOutboundBuffer out = connection.unsafe().outboundBuffer();
    return out == null || out.isEmpty();
  }

  /** The oldest message still waiting for the socket, or null: with {@link #sent} it tells whether output moves. */
  public static Object head(Channel connection) {
    ChannelOutboundBuffer out = connection.unsafe().outboundBuffer();
    return out == null ? null : out.current();
  }

  /** How much of {@code message}, a {@link #head}, the socket has taken: bytes of a buffer or a file region. */
  public static long sent(Object message) {
    return message instanceof FileRegion r ? r.transferred() : message instanceof ByteBuf b ? b.readerIndex() : 0;
  }
}
