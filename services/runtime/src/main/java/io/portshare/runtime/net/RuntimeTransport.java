package io.portshare.runtime.net;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFactory;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.InternetProtocolFamily;
import io.netty.channel.uring.IoUring;
import io.portshare.runtime.net.lean.LeanChannels;
import io.vertx.core.Future;
import io.vertx.core.datagram.DatagramSocketOptions;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.ClientOptionsBase;
import io.vertx.core.net.NetServerOptions;
import io.vertx.core.transport.Transport;
import java.net.SocketAddress;
import java.util.concurrent.ThreadFactory;

/**
 * The Netty transport the runtime gives every service Vert.x: the chosen one (epoll, io_uring or
 * NIO), with its listeners made by the runtime's {@link ListenerLayer}, and these things added
 * where Vert.x offers no option.
 *
 * <ul>
 *   <li>With {@code acceptOnEventLoop}, for a Vert.x instance with one event loop whose listening
 *       socket is its own (reuseport, pinned), the acceptor "group" is that same event loop, so a
 *       connection is accepted, registered and served on one thread as a C epoll server does.
 *   <li>On io_uring, {@code sendFile} stays zero-copy: Vert.x 5.0.7 declares that transport without
 *       file regions and would copy every file through 8 KiB heap chunks, while Netty's io_uring
 *       channel sends a {@code DefaultFileRegion} with {@code splice(2)} where the kernel has it.
 *   <li>With the lean channels on epoll, each channel's changes of interest reach epoll once per
 *       turn of its loop ({@link LeanChannels#ioHandlers}).
 *   <li>With {@code answerHalfClosed}, an HTTP server's connection whose client half-closes gets
 *       the answer to its request in flight (and to one pipelined behind it), then closes
 *       ({@link HalfClosedHttp}); a NetServer's closes on the client's FIN as before.
 *   <li>With the lean channels, a server's idle timeouts are kept by one sweep per event loop
 *       ({@link IdleSweep}) instead of Netty's handler in every connection.
 * </ul>
 *
 * <p>The listener layer has two front doors: Vert.x's servers reach it through this SPI's
 * {@code configure} and {@code serverChannelFactory}, which Vert.x calls for each server it binds;
 * a service's own pipeline through {@link #listenOwnPipelines}, which binds without Vert.x.
 */
public final class RuntimeTransport implements Transport {

  private final Transport delegate;
  private final Spi spi;
  private final ListenerLayer layer;

  /**
   * @param lean serve listeners and connections with the runtime's lean epoll channels (epoll only)
   * @param answerHalfClosed answer an HTTP client that half-closes before closing; false: Vert.x's
   *     stock close on its FIN
   * @param inheritedFd a listening socket this Vert.x serves instead of binding one, or -1
   */
  public RuntimeTransport(Transport delegate, boolean lean, boolean acceptOnEventLoop, boolean answerHalfClosed,
      Listeners listeners, AcceptErrorHandler acceptErrors, Connections connections, OwnPipelines ownPipelines,
      int firstLoop, int inheritedFd) {
    boolean epoll = delegate == Transport.EPOLL;
    if (lean && !epoll) {
      throw new IllegalArgumentException("the lean channels serve epoll only, not " + delegate.name());
    }
    this.delegate = delegate;
    this.layer = new ListenerLayer(delegate.implementation(), epoll, lean, listeners, acceptErrors, connections,
        ownPipelines, firstLoop, inheritedFd);
    this.spi = new Spi(delegate.implementation(), layer, acceptOnEventLoop, lean, answerHalfClosed,
        delegate == Transport.IO_URING && IoUring.isSpliceSupported());
  }

  /**
   * Listens on {@code options}' host and port with a pipeline of the service's own for each
   * connection, once every event loop of this Vert.x has asked: see {@link ListenerLayer#listenOwnPipelines}.
   * Completes with the port bound.
   */
  public Future<Integer> listenOwnPipelines(NetServerOptions options) {
    return layer.listenOwnPipelines(options);
  }

  @Override
  public String name() {
    return delegate.name();
  }

  @Override
  public boolean available() {
    return delegate.available();
  }

  @Override
  public Throwable unavailabilityCause() {
    return delegate.unavailabilityCause();
  }

  @Override
  public io.vertx.core.spi.transport.Transport implementation() {
    return spi;
  }

  /** Delegates everything but the event loop groups, the listeners and their bootstraps. */
  private static final class Spi implements io.vertx.core.spi.transport.Transport {
    private final io.vertx.core.spi.transport.Transport delegate;
    private final ListenerLayer layer;
    private final boolean acceptOnEventLoop;
    private final boolean lean;
    private final boolean answerHalfClosed;
    private final boolean spliceFileRegions;
    private volatile EventLoopGroup ioGroup;

    Spi(io.vertx.core.spi.transport.Transport delegate, ListenerLayer layer, boolean acceptOnEventLoop,
        boolean lean, boolean answerHalfClosed, boolean spliceFileRegions) {
      this.delegate = delegate;
      this.layer = layer;
      this.acceptOnEventLoop = acceptOnEventLoop;
      this.lean = lean;
      this.answerHalfClosed = answerHalfClosed;
      this.spliceFileRegions = spliceFileRegions;
    }

    @Override
    public synchronized EventLoopGroup eventLoopGroup(int type, int nThreads, ThreadFactory threadFactory,
        int ioRatio) {
      EventLoopGroup group;
      if (acceptOnEventLoop && type == ACCEPTOR_EVENT_LOOP_GROUP && ioGroup != null) {
        // Vert.x shuts both groups down on close; Netty's shutdownGracefully is idempotent.
        group = ioGroup;
      } else if (lean) {
        // Vert.x's own transports build their groups on their own handler factory, not on ioHandlerFactory().
        group = new MultiThreadIoEventLoopGroup(nThreads, threadFactory, ioHandlerFactory());
      } else {
        group = delegate.eventLoopGroup(type, nThreads, threadFactory, ioRatio);
      }
      if (type == IO_EVENT_LOOP_GROUP) {
        ioGroup = group;
        layer.loops(group);
      } else {
        layer.acceptors(group);
      }
      return group;
    }

    @Override
    public boolean supportsDomainSockets() {
      return delegate.supportsDomainSockets();
    }

    @Override
    public boolean supportFileRegion() {
      return spliceFileRegions || delegate.supportFileRegion();
    }

    @Override
    public boolean isAvailable() {
      return delegate.isAvailable();
    }

    @Override
    public Throwable unavailabilityCause() {
      return delegate.unavailabilityCause();
    }

    @Override
    public SocketAddress convert(io.vertx.core.net.SocketAddress address) {
      return delegate.convert(address);
    }

    @Override
    public io.vertx.core.net.SocketAddress convert(SocketAddress address) {
      return delegate.convert(address);
    }

    @Override
    public IoHandlerFactory ioHandlerFactory() {
      return lean ? LeanChannels.ioHandlers(delegate.ioHandlerFactory()) : delegate.ioHandlerFactory();
    }

    @Override
    public DatagramChannel datagramChannel() {
      return delegate.datagramChannel();
    }

    @Override
    public DatagramChannel datagramChannel(InternetProtocolFamily family) {
      return delegate.datagramChannel(family);
    }

    @Override
    public ChannelFactory<? extends Channel> channelFactory(boolean domainSocket) {
      return delegate.channelFactory(domainSocket);
    }

    @Override
    public ChannelFactory<? extends ServerChannel> serverChannelFactory(boolean domainSocket) {
      return layer.serverChannels(domainSocket);
    }

    @Override
    public void configure(DatagramChannel channel, DatagramSocketOptions options) {
      delegate.configure(channel, options);
    }

    @Override
    public void configure(ClientOptionsBase options, int connectTimeout, boolean domainSocket, Bootstrap bootstrap) {
      delegate.configure(options, connectTimeout, domainSocket, bootstrap);
    }

    @Override
    public void configure(NetServerOptions options, boolean domainSocket, ServerBootstrap bootstrap) {
      delegate.configure(options, domainSocket, bootstrap);
      // Vert.x has set its child handler by now: the layer counts each connection, then hands it on.
      io.netty.channel.ChannelHandler vertxChild = bootstrap.config().childHandler();
      // On the lean channels the runtime keeps the server's idle timeouts, one sweep per loop; a
      // server behind the proxy protocol keeps Vert.x's, which also times the proxy's header.
      IdleSweep idle = lean && !options.isUseProxyProtocol() ? IdleSweep.takeOver(options) : null;
      // Vert.x's HttpServer binds through a NetServer with its HttpServerOptions: only its connections.
      boolean halfClosed = answerHalfClosed && options instanceof HttpServerOptions;
      if (halfClosed) {
        bootstrap.childOption(ChannelOption.ALLOW_HALF_CLOSURE, true);
      }
      layer.configure(bootstrap, domainSocket, connection -> {
        connection.pipeline().addLast(vertxChild);
        if (idle != null) {
          idle.watch(connection);
        }
        if (halfClosed) {
          connection.pipeline().addFirst(HalfClosedHttp.INSTANCE);
        }
      });
    }
  }
}
