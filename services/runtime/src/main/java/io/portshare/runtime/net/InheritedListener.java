package io.portshare.runtime.net;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.ServerChannel;
import io.netty.util.AttributeKey;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;

/**
 * A Netty server channel over a listening socket this process inherited ({@link InheritedSockets}).
 *
 * <p>Vert.x creates its listener through the transport's server channel factory and then binds it;
 * this channel is already bound and listening, and Netty's {@code EpollServerSocketChannel} is final, so its
 * bind is answered in the pipeline by {@link Gate}: it checks the port Vert.x asks for, succeeds
 * without a bind(2), and only then lets the channel read (accept). Until then reads are held back,
 * so no connection is accepted before Netty's acceptor sits in the pipeline, as with a bound socket.
 */
final class InheritedListener {

  private static final AttributeKey<Boolean> INHERITED = AttributeKey.valueOf("portshare.inherited");

  private InheritedListener() {}

  /**
   * Marks {@code channel}, made over an inherited descriptor (a lean listener's, or Netty's own), as
   * one: closing it leaves this process without the socket, while its holder (systemd, the
   * supervisor) keeps its own descriptor of it for a successor.
   */
  static ServerChannel mark(ServerChannel channel) {
    channel.attr(INHERITED).set(Boolean.TRUE);
    return channel;
  }

  static boolean is(Channel listener) {
    return Boolean.TRUE.equals(listener.attr(INHERITED).get());
  }

  /** Goes into the inherited channel's pipeline before Vert.x binds it. */
  static final class Gate extends ChannelOutboundHandlerAdapter {
    private boolean bound;

    @Override
    public void bind(ChannelHandlerContext ctx, SocketAddress wanted, ChannelPromise promise) {
      InetSocketAddress has = (InetSocketAddress) ctx.channel().localAddress();
      int port = wanted instanceof InetSocketAddress ? ((InetSocketAddress) wanted).getPort() : -1;
      if (port != has.getPort() && port > 0) {
        promise.setFailure(new BindException("the inherited socket listens on port " + has.getPort()
            + ", not on port " + port));
        return;
      }
      bound = true;
      promise.setSuccess();
      ctx.read();
    }

    @Override
    public void read(ChannelHandlerContext ctx) {
      if (bound) {
        ctx.read();
      }
    }
  }
}
