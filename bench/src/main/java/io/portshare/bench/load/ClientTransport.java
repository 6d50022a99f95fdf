package io.portshare.bench.load;

import io.netty.channel.Channel;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketProtocolFamily;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.nio.channels.spi.SelectorProvider;

/** The generator's channels: native epoll where Netty has it (Linux), NIO elsewhere. */
enum ClientTransport {
  EPOLL, NIO;

  static ClientTransport best() {
    return Epoll.isAvailable() ? EPOLL : NIO;
  }

  String label() {
    return this == EPOLL ? "epoll" : "nio";
  }

  IoHandlerFactory ioHandlers() {
    return this == EPOLL ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
  }

  /** An unregistered channel of the address's family (no dual-stack socket for an IPv4 peer). */
  Channel newChannel(InetAddress peer) {
    SocketProtocolFamily family = peer instanceof Inet6Address ? SocketProtocolFamily.INET6 : SocketProtocolFamily.INET;
    return this == EPOLL ? new EpollSocketChannel(family) : new NioSocketChannel(SelectorProvider.provider(), family);
  }
}
