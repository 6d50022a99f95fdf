package io.portshare.runtime.net;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFactory;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.util.concurrent.EventExecutor;
import io.portshare.runtime.UsageException;
import io.portshare.runtime.net.lean.LeanChannels;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.net.NetServerOptions;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * The listeners of one service Vert.x instance, whichever front door binds them: Vert.x's own
 * servers ({@code HttpServer}, {@code NetServer}) through the transport SPI, or a service's own
 * pipeline, bound here ({@link #listenOwnPipelines}). Every listener gets the same treatment:
 *
 * <ul>
 *   <li>it joins {@link Listeners}, which pinned mode steers and the drain closes;
 *   <li>an {@link AcceptErrorHandler} says in one line when accept(2) fails, and pauses accepting;
 *   <li>an inherited socket is served instead of a new one, behind its {@link InheritedListener.Gate};
 *   <li>on epoll, it takes every waiting connection in one turn, up to a bound ({@link AcceptsPerTurn});
 *   <li>each accepted connection gets only the socket options that change something
 *       ({@link AcceptedSocketOptions}), is counted ({@link Connections}) on the loop it is
 *       registered on, and is then handed to Vert.x's pipeline or the service's own;
 *   <li>with {@code --channel lean} on epoll, listener and connections are the runtime's lean
 *       channels ({@link LeanChannels}), else Netty's own.
 * </ul>
 */
final class ListenerLayer {

  private final io.vertx.core.spi.transport.Transport stock;
  private final Listeners listeners;
  private final AcceptErrorHandler acceptErrors;
  private final Connections connections;
  private final OwnPipelines ownPipelines;
  private final int firstLoop;
  private final AtomicInteger inheritedFd;
  private final boolean epoll;
  private final boolean lean;
  private final boolean nettySetsNoDelay;
  private volatile EventLoopGroup acceptors;
  private volatile EventLoopGroup loops;
  /** {@link #loops} in its order, read per connection without an iterator. */
  private volatile EventExecutor[] loopArray = new EventExecutor[0];
  /** Own-pipeline registrations so far: the listener binds once every loop has one. */
  private final AtomicInteger ownRegistered = new AtomicInteger();
  private final Promise<Integer> ownBound = Promise.promise();

  ListenerLayer(io.vertx.core.spi.transport.Transport stock, boolean epoll, boolean lean, Listeners listeners,
      AcceptErrorHandler acceptErrors, Connections connections, OwnPipelines ownPipelines, int firstLoop,
      int inheritedFd) {
    this.stock = stock;
    this.epoll = epoll;
    this.lean = lean;
    // Netty's epoll socket channels, its own and the lean ones, turn TCP_NODELAY on as they are made.
    this.nettySetsNoDelay = epoll;
    this.listeners = listeners;
    this.acceptErrors = acceptErrors;
    this.connections = connections;
    this.ownPipelines = ownPipelines;
    this.firstLoop = firstLoop;
    this.inheritedFd = new AtomicInteger(inheritedFd);
  }

  /** The Vert.x instance's event loops, as it makes them. */
  void loops(EventLoopGroup group) {
    List<EventExecutor> all = new ArrayList<>();
    group.forEach(all::add);
    loopArray = all.toArray(new EventExecutor[0]);
    loops = group;
    ownPipelines.addGroup(group);
  }

  /** The group that accepts: the event loops themselves when they accept, else Vert.x's acceptor thread. */
  void acceptors(EventLoopGroup group) {
    acceptors = group;
  }

  /**
   * Everything the runtime adds to a listener's bootstrap once its socket options are set:
   * connections go through counting to {@code next}.
   *
   * <p>Where the lean channels would serve a listener that asks for an option they do not serve,
   * its bind fails with a {@link UsageException} naming the option and {@code --channel netty}.
   */
  void configure(ServerBootstrap bootstrap, boolean domainSocket, Consumer<Channel> next) {
    AcceptedSocketOptions.trim(bootstrap, nettySetsNoDelay);
    String refused = lean && !domainSocket ? LeanChannels.unserved(bootstrap).map(option -> "--channel lean does not"
        + " serve the " + option + " this server asks for; run it with --channel netty").orElse(null) : null;
    bootstrap.childHandler(new Counting(next));
    if (epoll) {
      // Netty's epoll listener accepts one connection per turn unless given AcceptsPerTurn.
      bootstrap.option(ChannelOption.RCVBUF_ALLOCATOR, AcceptsPerTurn.allocator());
    }
    // ServerBootstrap puts this handler before its acceptor, so AcceptErrorHandler sees accept errors first.
    bootstrap.handler(new ChannelInitializer<ServerChannel>() {
      @Override
      protected void initChannel(ServerChannel listener) {
        if (refused != null) {
          // Failing the bind is what reaches the caller of listen, through Vert.x's bind or the runtime's.
          listener.pipeline().addLast(new RefusedBind(new UsageException(refused)));
          return;
        }
        listeners.add(listener);
        if (InheritedListener.is(listener)) {
          listener.pipeline().addLast(new InheritedListener.Gate());
        }
        listener.pipeline().addLast(acceptErrors);
      }
    });
  }

  /** Fails a listener's bind with {@code why} and closes it: the listener asked for what it cannot have. */
  private static final class RefusedBind extends ChannelOutboundHandlerAdapter {
    private final Exception why;

    RefusedBind(Exception why) {
      this.why = why;
    }

    @Override
    public void bind(ChannelHandlerContext ctx, SocketAddress at, ChannelPromise promise) {
      promise.setFailure(why);
      ctx.close();
    }
  }

  /**
   * Where listeners come from: the inherited socket for the first one asked for (the service port's,
   * which a service binds first), then new sockets.
   */
  ChannelFactory<? extends ServerChannel> serverChannels(boolean domainSocket) {
    int fd = domainSocket ? -1 : inheritedFd.getAndSet(-1);
    if (fd >= 0) {
      return () -> InheritedListener.mark(lean ? LeanChannels.inherited(fd) : new EpollServerSocketChannel(fd));
    }
    return lean && !domainSocket ? LeanChannels.listeners() : stock.serverChannelFactory(domainSocket);
  }

  /**
   * The listener whose connections get the service's own pipeline, bound by the runtime with
   * {@code options} (TLS aside, which the caller refuses) once every event loop of this Vert.x has
   * registered its pipeline: one listener per Vert.x, as Vert.x shares one server among the
   * verticles of one instance. Completes with the port bound, on whichever thread binds.
   */
  Future<Integer> listenOwnPipelines(NetServerOptions options) {
    if (ownRegistered.incrementAndGet() == loopArray.length) {
      bindOwnPipelines(options);
    }
    return ownBound.future();
  }

  private void bindOwnPipelines(NetServerOptions options) {
    try {
      ServerBootstrap bootstrap = new ServerBootstrap().group(acceptors, loops);
      stock.configure(options, false, bootstrap);
      configure(bootstrap, false, ownPipelines::setUp);
      bootstrap.channelFactory(serverChannels(false));
      // -1 is Vert.x's "one random port shared by the verticles of this instance": here, one listener.
      InetSocketAddress at = new InetSocketAddress(options.getHost(), Math.max(0, options.getPort()));
      ChannelFuture bound = bootstrap.bind(at);
      bound.addListener(f -> {
        if (bound.isSuccess()) {
          ownBound.complete(((InetSocketAddress) bound.channel().localAddress()).getPort());
        } else {
          ownBound.fail(bound.cause());
        }
      });
    } catch (RuntimeException e) {
      ownBound.fail(e);
    }
  }

  /** The runtime's number of {@code loop}: its place in this Vert.x's group, after {@code firstLoop}. */
  private int number(EventLoop loop) {
    EventExecutor[] all = loopArray;
    for (int i = 0; i < all.length; i++) {
      if (all[i] == loop) {
        return firstLoop + i;
      }
    }
    return firstLoop;
  }

  /**
   * The child handler: counts a connection once it is registered on its event loop (so the loop is
   * known, and before any other handler sees it), then hands its pipeline on and leaves it.
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
}
