package io.portshare.runtime;

import io.micrometer.core.instrument.MeterRegistry;
import io.netty.channel.Channel;
import io.portshare.runtime.config.RuntimeSettings;
import io.portshare.runtime.config.ScalingMode;
import io.portshare.runtime.config.Settings;
import io.portshare.runtime.net.Connections;
import io.portshare.runtime.net.Listeners;
import io.portshare.runtime.net.OwnPipelines;
import io.portshare.runtime.net.RuntimeTransport;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetServerOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * What the runtime hands one verticle instance: its settings, its place and its meters. The runtime
 * counts connections itself; a service listens through {@link #listen} and writes its protocol.
 */
public final class ServiceContext {

  private final String serviceName;
  private final Settings settings;
  private final RuntimeSettings common;
  private final ScalingMode mode;
  private final int instance;
  private final int port;
  private final MeterRegistry registry;
  /** How each server this instance listens with shuts down gracefully, for the drain. */
  private final List<Function<Duration, Future<Void>>> shutdowns = new CopyOnWriteArrayList<>();
  private final Connections connections;
  private final OwnPipelines ownPipelines;
  /** The transport of this instance's Vert.x: its listener layer binds an own-pipeline listener. */
  private final RuntimeTransport transport;
  /** True from start until the runtime's warm-up has ended: connections meanwhile are its own. */
  private volatile boolean warmingUp;
  private volatile int actualPort = -1;
  /** This instance's own-pipeline listener's loop, once it listens with one. */
  private OwnPipelines.Loop ownLoop;

  ServiceContext(String serviceName, Settings settings, RuntimeSettings common, ScalingMode mode, int instance,
      int port, MeterRegistry registry, Connections connections, OwnPipelines ownPipelines, RuntimeTransport transport,
      boolean warmingUp) {
    this.serviceName = serviceName;
    this.settings = settings;
    this.common = common;
    this.mode = mode;
    this.instance = instance;
    this.port = port;
    this.registry = registry;
    this.connections = connections;
    this.ownPipelines = ownPipelines;
    this.transport = transport;
    this.warmingUp = warmingUp;
  }

  public String serviceName() {
    return serviceName;
  }

  /** Every option's value, the service's own ones included (read them into a typed record once). */
  public Settings settings() {
    return settings;
  }

  /** The mode that runs (pinned falls back to reuseport where it cannot work). */
  public ScalingMode mode() {
    return mode;
  }

  /** This instance's index, 0..instances-1; also its event loop's label in metrics. */
  public int instance() {
    return instance;
  }

  public int instances() {
    return common.instances();
  }

  /** The registry behind {@code /metrics}; name meters {@code portshare.<service>.*}. */
  public MeterRegistry registry() {
    return registry;
  }

  /** Options for a TCP server on the service port, with the socket settings the mode needs. */
  public NetServerOptions netServerOptions() {
    NetServerOptions o = new NetServerOptions();
    applySocketOptions(o);
    return o;
  }

  /**
   * Options for an HTTP/1.1 server on the service port, with the socket settings the mode needs.
   *
   * <p>Cleartext HTTP/2 (h2c) is off. With it on, Vert.x holds a new connection in a detector
   * until its first bytes tell HTTP/2 from HTTP/1; before those arrive the connection has no
   * HTTP connection behind it, so a server shutdown cannot reach it and a drain waits the whole
   * {@code --drain-timeout} for a client that connected and sent nothing yet (a pool warming up,
   * a preconnect). Off, every connection is an HTTP/1.1 one from its first byte: the drain closes
   * the idle ones at once and lets the ones with a request in flight finish.
   */
  public HttpServerOptions httpServerOptions() {
    HttpServerOptions o = new HttpServerOptions().setHttp2ClearTextEnabled(false);
    applySocketOptions(o);
    return o;
  }

  private void applySocketOptions(NetServerOptions o) {
    o.setHost(common.host())
        .setPort(port)
        .setReuseAddress(true)
        .setReusePort(mode.socketPerInstance())
        .setTcpNoDelay(true)
        .setAcceptBacklog(Listeners.ACCEPT_BACKLOG);
  }

  /** Listens and registers the server for drain. */
  public Future<NetServer> listen(NetServer server) {
    shutdowns.add(timeout -> server.shutdown(timeout.toMillis(), TimeUnit.MILLISECONDS));
    return server.listen().onSuccess(s -> actualPort = s.actualPort());
  }

  /** Listens and registers the server for drain. */
  public Future<HttpServer> listen(HttpServer server) {
    shutdowns.add(timeout -> server.shutdown(timeout.toMillis(), TimeUnit.MILLISECONDS));
    return server.listen().onSuccess(s -> actualPort = s.actualPort());
  }

  /**
   * Listens on the service port with a Netty pipeline of the service's own for each connection:
   * the runtime binds the listener as it binds a Vert.x server's (every mode, inherited sockets,
   * pinned steering), counts each connection, then gives it to {@code initializer} on this
   * instance's event loop. No Vert.x {@code NetSocket} or HTTP connection is made, so Vert.x's
   * per-connection options (idle timeout, metrics) do not apply; {@code options} gives the
   * listener's socket options. TLS is refused: the start fails with one line. Call it from
   * {@code start()}, at most once per instance; in shared mode the one listener binds once every
   * instance has called it.
   *
   * <p>Registered for drain: the drain fires {@link DrainEvent#INSTANCE} through the pipeline of
   * every connection this instance holds open, waits until they have closed or the drain timeout
   * has passed, and closes what is left.
   */
  public Future<Void> listen(NetServerOptions options, ConnectionInitializer initializer) {
    if (options.isSsl()) {
      // The runtime's listener layer gives these connections no TLS handler: refused, never served in the clear.
      return Future.failedFuture(new ServiceRuntime.StartException("cannot listen on port " + options.getPort()
          + " with TLS on a pipeline of the service's own: the runtime would serve it in the clear; listen with a"
          + " Vert.x NetServer or HttpServer, which serve TLS in every mode, or end TLS in front of the service",
          null));
    }
    OwnPipelines.Loop loop = ownPipelines.register(initializer::initConnection);
    ownLoop = loop;
    shutdowns.add(timeout -> {
      // The listener itself was closed before the drain began (Listeners), as every listener is.
      Promise<Void> drained = Promise.promise();
      loop.drain(DrainEvent.INSTANCE, timeout).addListener(f -> drained.complete());
      return drained.future();
    });
    return transport.listenOwnPipelines(options).onSuccess(bound -> actualPort = bound).mapEmpty();
  }

  /**
   * The sweep period for timeouts no shorter than {@code shortestTimeout}: a quarter of it, between
   * 50 ms and 1 s, so a connection closes at most a quarter late and a long timeout costs one visit
   * per connection per second.
   */
  public static Duration sweepPeriodFor(Duration shortestTimeout) {
    return Duration.ofMillis(Math.max(50, Math.min(1000, shortestTimeout.toMillis() / 4)));
  }

  /**
   * Every {@code period}, on this instance's event loop, calls {@code visit} with each connection of
   * its {@link #listen(NetServerOptions, ConnectionInitializer) own-pipeline listener} that is open:
   * one sweep per event loop for what a service times out per connection (idle connections, slow
   * request heads), where a scheduled task per connection would cost an allocation and a heap insert
   * on accept and a removal on close. The visit may close the connection. Call it from
   * {@code start()}, after that listen.
   */
  public void sweepConnections(Duration period, Consumer<Channel> visit) {
    if (ownLoop == null) {
      throw new IllegalStateException("sweepConnections follows listen(NetServerOptions, ConnectionInitializer)");
    }
    if (period.isNegative() || period.isZero()) {
      throw new IllegalArgumentException("sweep period must be positive: " + period);
    }
    ownLoop.sweep(period, visit);
  }

  /**
   * True while the runtime warms this service up, before ready: every connection accepted
   * meanwhile is warm-up traffic. A service that counts requests counts these apart from its own
   * meters and switches back in {@link ServiceVerticle#warmedUp()}.
   */
  public boolean warmingUp() {
    return warmingUp;
  }

  /**
   * How long a new connection may live ({@code --max-connection-age}), jittered by up to 10% either
   * way so that connections opened together do not all close together; {@link Duration#ZERO} when
   * connections live as long as their peer wants. Past it, a service closes the connection as its
   * drain would (RPC) or answers the next request with {@code Connection: close} (HTTP).
   */
  public Duration connectionLifetime() {
    Duration age = common.maxConnectionAge();
    if (age.isZero()) {
      return Duration.ZERO;
    }
    double jitter = 0.9 + 0.2 * ThreadLocalRandom.current().nextDouble();
    return Duration.ofNanos(Math.max(1, (long) (age.toNanos() * jitter)));
  }

  void warmUpEnded() {
    warmingUp = false;
  }

  /** Warm-up connections this instance's event loop has accepted. */
  long warmUpConnections() {
    return connections.warmUpConnections(instance);
  }

  int actualPort() {
    return actualPort;
  }

  Future<Void> shutdownServers(Duration timeout) {
    List<Future<Void>> all = new ArrayList<>();
    for (Function<Duration, Future<Void>> shutdown : shutdowns) {
      all.add(shutdown.apply(timeout));
    }
    return Future.join(all).mapEmpty();
  }
}
