package io.portshare.runtime.net;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFactory;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.InternetProtocolFamily;
import io.netty.channel.uring.IoUring;
import io.netty.util.concurrent.EventExecutor;
import io.vertx.core.datagram.DatagramSocketOptions;
import io.vertx.core.net.ClientOptionsBase;
import io.vertx.core.net.NetServerOptions;
import io.vertx.core.transport.Transport;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * The Netty transport the runtime gives every service Vert.x: the chosen one (epoll, io_uring or
 * NIO), with these things added where Vert.x offers no option.
 *
 * <ul>
 *   <li>Every accepted connection is counted ({@link Connections}) on the event loop it is
 *       registered on, numbered from {@code firstLoop}, and uncounted when it closes; the counting
 *       initializer removes itself, so the connection's pipeline is the service's alone.
 *   <li>Every listening socket joins {@code listeners}, so that a drain can close them all, each
 *       with an empty accept queue, before it asks the servers to shut down ({@link Listeners}).
 *   <li>Every listening socket gets an {@link AcceptErrorHandler}: when accept(2) fails (out of
 *       descriptors, above all) the server says so in one line of its own and pauses accepting
 *       for a second, instead of Netty's generic "reached at the tail of the pipeline" warning
 *       with a stack trace every second.
 *   <li>With {@code acceptOnEventLoop}, for a Vert.x instance with one event loop whose listening
 *       socket is its own (reuseport, pinned), the acceptor "group" is that same event loop, so a
 *       connection is accepted, registered and served on one thread as a C epoll server does.
 *   <li>On io_uring, {@code sendFile} stays zero-copy: Vert.x 5.0.7 declares that transport without
 *       file regions and would copy every file through 8 KiB heap chunks, while Netty's io_uring
 *       channel sends a {@code DefaultFileRegion} with {@code splice(2)} where the kernel has it.
 *   <li>On epoll, listeners are {@link EpollListener}s and their connections {@link AcceptedEpollChannel}s
 *       (Netty's own channels where a server asks for an option those do not serve): no
 *       getsockname(2) for the local address, no getsockopt(2) for SO_SNDBUF and SO_LINGER and no
 *       EPOLL_CTL_DEL per connection.
 *   <li>Accepted sockets get only the options that change something ({@link AcceptedSocketOptions}).
 *   <li>On epoll, each channel's changes of interest reach epoll once per turn of its loop
 *       ({@link CoalescingEpollIoHandler}): an accepted connection enters epoll in one epoll_ctl(2).
 *   <li>An epoll listener takes every connection waiting in its queue in one turn of its event
 *       loop, up to a bound, rather than Netty's one ({@link AcceptsPerTurn}).
 *   <li>With an {@code inheritedFd}, the first server socket Vert.x asks for is that inherited
 *       listening socket rather than a new one ({@link InheritedListener}).
 *   <li>A listener bound through {@link OwnPipelines#bind} gives its connections, once counted, to
 *       the service's own pipeline instead of Vert.x's.
 * </ul>
 */
public final class RuntimeTransport implements Transport {

  private final Transport delegate;
  private final Spi spi;

  /** @param inheritedFd a listening socket this Vert.x serves instead of binding one, or -1 */
  public RuntimeTransport(Transport delegate, boolean acceptOnEventLoop, Listeners listeners,
      AcceptErrorHandler acceptErrors, Connections connections, OwnPipelines ownPipelines, int firstLoop,
      int inheritedFd) {
    this.delegate = delegate;
    this.spi = new Spi(delegate.implementation(), acceptOnEventLoop, listeners, acceptErrors, connections,
        ownPipelines, firstLoop, inheritedFd, delegate == Transport.IO_URING && IoUring.isSpliceSupported(),
        delegate == Transport.EPOLL);
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

  /** Delegates everything but the acceptor group (optionally) and the server bootstrap's handlers. */
  private static final class Spi implements io.vertx.core.spi.transport.Transport {
    private final io.vertx.core.spi.transport.Transport delegate;
    private final boolean acceptOnEventLoop;
    private final Listeners listeners;
    private final AcceptErrorHandler acceptErrors;
    private final Connections connections;
    private final OwnPipelines ownPipelines;
    private final int firstLoop;
    private final AtomicInteger inheritedFd;
    private final boolean spliceFileRegions;
    private final boolean nettySetsNoDelay;
    /** On epoll: the runtime's own event loops and channels ({@link CoalescingEpollIoHandler}). */
    private final boolean epoll;
    private volatile EventLoopGroup ioGroup;
    /** {@link #ioGroup}'s loops in its order, read per connection without an iterator. */
    private volatile EventExecutor[] ioLoops = new EventExecutor[0];
    /** For the listener Vert.x asks for next on this thread: served by {@link EpollListener}? */
    private final ThreadLocal<Boolean> ownChannels = new ThreadLocal<>();

    Spi(io.vertx.core.spi.transport.Transport delegate, boolean acceptOnEventLoop, Listeners listeners,
        AcceptErrorHandler acceptErrors, Connections connections, OwnPipelines ownPipelines, int firstLoop,
        int inheritedFd, boolean spliceFileRegions, boolean epoll) {
      this.delegate = delegate;
      this.epoll = epoll;
      this.spliceFileRegions = spliceFileRegions;
      // Netty's epoll socket channel turns TCP_NODELAY on as it is created.
      this.nettySetsNoDelay = epoll;
      this.acceptOnEventLoop = acceptOnEventLoop;
      this.listeners = listeners;
      this.acceptErrors = acceptErrors;
      this.connections = connections;
      this.ownPipelines = ownPipelines;
      this.firstLoop = firstLoop;
      this.inheritedFd = new AtomicInteger(inheritedFd);
    }

    /**
     * The child handler: counts a connection once it is registered on its event loop (so the loop
     * is known, and before any other handler sees it), then hands its pipeline on (to Vert.x's own
     * initializer, or to the service's own pipeline) and leaves it.
     */
    @ChannelHandler.Sharable
    private final class Counting extends ChannelInitializer<Channel> {
      private final Consumer<Channel> next;

      Counting(Consumer<Channel> next) {
        this.next = next;
      }

      @Override
      protected void initChannel(Channel connection) {
        connections.accepted(connection, number(connection.eventLoop()));
        next.accept(connection);
      }
    }

    /** True when every option of {@code bootstrap} is one {@link EpollListener} and its connections serve. */
    private static boolean ownChannelsServe(ServerBootstrap bootstrap) {
      for (Map.Entry<ChannelOption<?>, Object> e : bootstrap.config().options().entrySet()) {
        if (!EpollListener.serves(e.getKey(), e.getValue())) {
          return false;
        }
      }
      for (Map.Entry<ChannelOption<?>, Object> e : bootstrap.config().childOptions().entrySet()) {
        if (!AcceptedEpollChannel.serves(e.getKey(), e.getValue())) {
          return false;
        }
      }
      return true;
    }

    /** The runtime's number of {@code loop}: its place in this Vert.x's group, after {@code firstLoop}. */
    private int number(EventLoop loop) {
      EventExecutor[] loops = ioLoops;
      for (int i = 0; i < loops.length; i++) {
        if (loops[i] == loop) {
          return firstLoop + i;
        }
      }
      return firstLoop;
    }

    @Override
    public synchronized EventLoopGroup eventLoopGroup(int type, int nThreads, ThreadFactory threadFactory,
        int ioRatio) {
      if (acceptOnEventLoop && type == ACCEPTOR_EVENT_LOOP_GROUP && ioGroup != null) {
        // Vert.x shuts both groups down on close; Netty's shutdownGracefully is idempotent.
        return ioGroup;
      }
      // Vert.x's own transports build their groups on their own handler factory, not on ioHandlerFactory().
      EventLoopGroup group = epoll ? new MultiThreadIoEventLoopGroup(nThreads, threadFactory, ioHandlerFactory())
          : delegate.eventLoopGroup(type, nThreads, threadFactory, ioRatio);
      if (type == IO_EVENT_LOOP_GROUP) {
        ioGroup = group;
        List<EventExecutor> loops = new ArrayList<>();
        group.forEach(loops::add);
        ioLoops = loops.toArray(new EventExecutor[0]);
        ownPipelines.addGroup(group);
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
      return epoll ? CoalescingEpollIoHandler.factory(delegate.ioHandlerFactory()) : delegate.ioHandlerFactory();
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
      // Handed out once: the inherited socket is the service port's, the first server Vert.x binds.
      int fd = domainSocket ? -1 : inheritedFd.getAndSet(-1);
      boolean own = !domainSocket && Boolean.TRUE.equals(ownChannels.get());
      ownChannels.remove();
      if (fd >= 0) {
        return () -> InheritedListener.open(fd, own);
      }
      return own ? EpollListener::new : delegate.serverChannelFactory(domainSocket);
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
      AcceptedSocketOptions.trim(bootstrap, nettySetsNoDelay);
      // Vert.x has set its child handler by now: Counting wraps it, or takes its place.
      ChannelHandler vertxChild = bootstrap.config().childHandler();
      bootstrap.childHandler(new Counting(ownPipelines.binding() ? ownPipelines::setUp
          : connection -> connection.pipeline().addLast(vertxChild)));
      // Netty's epoll listener accepts one connection per turn unless given AcceptsPerTurn.
      if (epoll) {
        bootstrap.option(ChannelOption.RCVBUF_ALLOCATOR, AcceptsPerTurn.allocator());
      }
      // Vert.x configures a bootstrap and then, on the same thread, asks for its listener's factory.
      ownChannels.set(epoll && !domainSocket && ownChannelsServe(bootstrap));
      // ServerBootstrap puts this handler before its acceptor, so AcceptErrorHandler sees accept
      // errors first.
      bootstrap.handler(new ChannelInitializer<ServerChannel>() {
        @Override
        protected void initChannel(ServerChannel listener) {
          listeners.add(listener);
          if (InheritedListener.is(listener)) {
            listener.pipeline().addLast(new InheritedListener.Gate());
          }
          listener.pipeline().addLast(acceptErrors);
        }
      });
    }
  }
}
