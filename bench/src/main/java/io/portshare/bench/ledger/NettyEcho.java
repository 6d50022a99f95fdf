package io.portshare.bench.ledger;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;

/**
 * The ledger's plain-Netty RPC row: one epoll event loop that accepts and serves, one handler that
 * writes back what it reads (for a client that sends whole frames and waits, that is the echo
 * protocol's answer byte for byte). No Vert.x, no runtime: what Netty and the JVM cost per connection.
 * Args: PORT.
 */
public final class NettyEcho {

  private NettyEcho() {}

  @ChannelHandler.Sharable
  static final class Echo extends ChannelInboundHandlerAdapter {
    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      ctx.write(msg);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
      ctx.flush();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      ctx.close();
    }
  }

  public static void main(String[] args) throws InterruptedException {
    int port = Integer.parseInt(args[0]);
    EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, EpollIoHandler.newFactory());
    Echo echo = new Echo();
    Channel listener = new ServerBootstrap().group(group).channel(EpollServerSocketChannel.class)
        .option(ChannelOption.SO_BACKLOG, 4096)
        .childOption(ChannelOption.TCP_NODELAY, true)
        .childHandler(echo)
        .bind(port).sync().channel();
    System.out.println("netty-echo listening on " + listener.localAddress());
    listener.closeFuture().sync();
  }
}
