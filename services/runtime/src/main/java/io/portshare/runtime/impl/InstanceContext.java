package io.portshare.runtime.impl;

import io.micrometer.core.instrument.MeterRegistry;
import io.netty.channel.Channel;
import io.portshare.runtime.ConnectionInitializer;
import io.portshare.runtime.DrainEvent;
import io.portshare.runtime.NettyAccess;
import io.portshare.runtime.ServiceContext;
import io.portshare.runtime.Settings;
import io.portshare.runtime.StartException;
import io.portshare.runtime.config.ChannelSetting;
import io.portshare.runtime.config.RuntimeSettings;
import io.portshare.runtime.impl.mode.Mode;
import io.portshare.runtime.net.Connections;
import io.portshare.runtime.net.Listeners;
import io.portshare.runtime.net.OwnPipelines;
import io.portshare.runtime.net.RuntimeTransport;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetServerOptions;
import io.vertx.ext.healthchecks.Status;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The runtime's {@link ServiceContext} for one verticle instance: where it listens and how, and the
 * connection policy every server it listens with gets ({@link ConnectionPolicy}).
 */
final class InstanceContext implements ServiceContext {

  private final String serviceName;
  private final Settings settings;
  private final RuntimeSettings common;
  private final Mode mode;
  private final int instance;
  private final int port;
  private final MeterRegistry registry;
  /** How each server this instance listens with shuts down gracefully, for the drain. */
  private final List<Function<Duration, Future<Void>>> shutdowns = new CopyOnWriteArrayList<>();
  private final Connections connections;
  private final OwnPipelines ownPipelines;
  /**
   * The transport of this instance's Vert.x: its listener layer binds an own-pipeline listener. Null
   * on a Vert.x the runtime did not make ({@link VerticleDeployment}).
   */
  private final RuntimeTransport transport;
  private final ReadinessChecks readiness;
  /** True from start until the runtime's warm-up has ended: connections meanwhile are its own. */
  private volatile boolean warmingUp;
  private volatile int actualPort = -1;
  /** This instance's own-pipeline listener's loop, once it listens with one. */
  private OwnPipelines.Loop ownLoop;

  InstanceContext(String serviceName, Settings settings, RuntimeSettings common, Mode mode, int instance,
      int port, MeterRegistry registry, Connections connections, OwnPipelines ownPipelines, RuntimeTransport transport,
      ReadinessChecks readiness, boolean warmingUp) {
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
    this.readiness = readiness;
    this.warmingUp = warmingUp;
  }

  @Override
  public String serviceName() {
    return serviceName;
  }

  @Override
  public Settings settings() {
    return settings;
  }

  @Override
  public String mode() {
    return mode.label();
  }

  @Override
  public int instance() {
    return instance;
  }

  @Override
  public int instances() {
    return common.instances();
  }

  @Override
  public MeterRegistry registry() {
    return registry;
  }

  @Override
  public NetServerOptions netServerOptions() {
    NetServerOptions o = new NetServerOptions();
    applySocketOptions(o);
    return o;
  }

  @Override
  public HttpServerOptions httpServerOptions() {
    HttpServerOptions o = new HttpServerOptions().setHttp2ClearTextEnabled(false)
        .setPerFrameWebSocketCompressionSupported(false)
        .setPerMessageWebSocketCompressionSupported(false);
    applySocketOptions(o);
    return o;
  }

  /** The mode's socket settings, and --idle-timeout as Vert.x's idle timeout (nothing read or written for that long). */
  private void applySocketOptions(NetServerOptions o) {
    long idleMillis = common.idleTimeout().toMillis();
    if (idleMillis > 0) {
      o.setIdleTimeout((int) Math.min(Integer.MAX_VALUE, idleMillis)).setIdleTimeoutUnit(TimeUnit.MILLISECONDS);
    }
    o.setHost(common.host())
        .setPort(port)
        .setReuseAddress(true)
        .setReusePort(mode.reusePort())
        .setTcpNoDelay(true)
        .setAcceptBacklog(Listeners.ACCEPT_BACKLOG);
  }

  /** As {@code --channel} asks, whatever channels run: a Buffer's view rests on Vert.x, not on the transport. */
  @Override
  public NettyAccess.BufferBytes bufferBytes() {
    return common.channel() == ChannelSetting.LEAN ? NettyAccess.BufferBytes.VIEWS : NettyAccess.BufferBytes.COPIES;
  }

  @Override
  public Future<NetServer> listen(NetServer server) {
    shutdowns.add(timeout -> server.shutdown(timeout.toMillis(), TimeUnit.MILLISECONDS));
    return server.listen().onSuccess(s -> actualPort = s.actualPort());
  }

  @Override
  public Future<HttpServer> listen(HttpServer server) {
    return listen(server, null);
  }

  @Override
  public Future<HttpServer> listen(HttpServer server, Handler<HttpConnection> connectionHandler) {
    if (!connectionLifetime().isZero()) {
      Handler<HttpServerRequest> requests = server.requestHandler();
      if (requests == null) {
        return Future.failedFuture(new IllegalStateException("set the server's request handler before listen"));
      }
      ConnectionPolicy policy = new ConnectionPolicy(this::connectionLifetime);
      server.requestHandler(policy.requests(requests));
      server.connectionHandler(connection -> {
        if (connectionHandler != null) {
          connectionHandler.handle(connection);
        }
        policy.born(connection);
      });
    } else if (connectionHandler != null) {
      server.connectionHandler(connectionHandler);
    }
    shutdowns.add(timeout -> server.shutdown(timeout.toMillis(), TimeUnit.MILLISECONDS));
    return server.listen().onSuccess(s -> actualPort = s.actualPort());
  }

  @Override
  public Future<Void> listen(NetServerOptions options, ConnectionInitializer initializer) {
    if (transport == null) {
      return Future.failedFuture(new StartException("cannot listen with a pipeline of the service's own on a Vert.x"
          + " the runtime did not make: start the service on the runtime (the launcher, or portshare-test's"
          + " Services.start) to serve it", null));
    }
    if (options.isSsl()) {
      // The runtime's listener layer gives these connections no TLS handler: refused, never served in the clear.
      return Future.failedFuture(new StartException("cannot listen on port " + options.getPort()
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

  @Override
  public void sweepConnections(Duration period, Consumer<Channel> visit) {
    if (ownLoop == null) {
      throw new IllegalStateException("sweepConnections follows listen(NetServerOptions, ConnectionInitializer)");
    }
    if (period.isNegative() || period.isZero()) {
      throw new IllegalArgumentException("sweep period must be positive: " + period);
    }
    ownLoop.sweep(period, visit);
  }

  @Override
  public boolean warmingUp() {
    return warmingUp;
  }

  @Override
  public <T> Supplier<T> warmUpSplit(T served, T warmUp) {
    // Read on this instance's loop, and switched there (warmUpEnded runs before the verticles are told).
    return () -> warmingUp ? warmUp : served;
  }

  @Override
  public Duration connectionLifetime() {
    Duration age = common.maxConnectionAge();
    if (age.isZero()) {
      return Duration.ZERO;
    }
    double jitter = 0.9 + 0.2 * ThreadLocalRandom.current().nextDouble();
    return Duration.ofNanos(Math.max(1, (long) (age.toNanos() * jitter)));
  }

  @Override
  public void readinessCheck(String name, Handler<Promise<Status>> procedure) {
    if (name == null || name.isBlank() || name.contains("/")) {
      throw new IllegalArgumentException("a readiness check needs a name without '/': \"" + name + "\"");
    }
    // Registered from start(), on this instance's event loop: the check runs there too.
    Context on = Vertx.currentContext();
    readiness.add(name + "/" + instance, promise -> {
      if (on == null) {
        procedure.handle(promise);
      } else {
        on.runOnContext(v -> procedure.handle(promise));
      }
    });
  }

  @Override
  public Future<Void> shutdownServers(Duration timeout) {
    List<Future<Void>> all = new ArrayList<>();
    for (Function<Duration, Future<Void>> shutdown : shutdowns) {
      all.add(shutdown.apply(timeout));
    }
    return Future.join(all).mapEmpty();
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
}
