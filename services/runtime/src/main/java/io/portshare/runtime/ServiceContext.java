package io.portshare.runtime;

import io.micrometer.core.instrument.MeterRegistry;
import io.netty.channel.Channel;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetServerOptions;
import io.vertx.ext.healthchecks.Status;
import java.time.Duration;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * What the runtime hands one verticle instance ({@link ServiceVerticle#service}): its settings, its
 * place among the instances, its meters, and the one way to listen. Every server a verticle listens
 * with through {@link #listen} gets the runtime's connection policy: the scaling mode's socket, the
 * listener layer's accept path and counting, {@code --max-connection-age}, the drain on SIGTERM and
 * the warm-up before ready; the service writes its protocol and nothing of these.
 */
public interface ServiceContext {

  /** The service's name, as its descriptor says ({@code --service}, metrics labels). */
  String serviceName();

  /** Every option's value, the service's own ones included (read them into a typed record once). */
  Settings settings();

  /** The scaling mode that runs, by its flag name ({@code shared}, {@code reuseport}, {@code pinned}). */
  String mode();

  /** This instance's index, 0..instances-1; also its event loop's label in metrics. */
  int instance();

  /** How many instances the service runs. */
  int instances();

  /** The registry behind {@code /metrics}; name meters {@code portshare.<service>.*}. */
  MeterRegistry registry();

  /**
   * Options for a TCP server on the service port, with the socket settings the mode needs and
   * {@code --idle-timeout} as Vert.x's idle timeout.
   */
  NetServerOptions netServerOptions();

  /**
   * Options for an HTTP/1.1 server on the service port, with the socket settings the mode needs and
   * {@code --idle-timeout} as Vert.x's idle timeout.
   *
   * <p>Cleartext HTTP/2 (h2c) is off. With it on, Vert.x holds a new connection in a detector
   * until its first bytes tell HTTP/2 from HTTP/1; before those arrive the connection has no
   * HTTP connection behind it, so a server shutdown cannot reach it and a drain waits the whole
   * {@code --drain-timeout} for a client that connected and sent nothing yet (a pool warming up,
   * a preconnect). Off, every connection is an HTTP/1.1 one from its first byte: the drain closes
   * the idle ones at once and lets the ones with a request in flight finish.
   *
   * <p>WebSocket compression (per frame and per message) is off too: with either on, Vert.x adds a
   * WebSocket extension handler and its handshakers to every connection's pipeline, WebSocket or not
   * (about 330 bytes per connection). A service off these options loses only the compression of its
   * WebSockets; one that wants it sets {@code setPerMessageWebSocketCompressionSupported(true)} (or
   * the per-frame one) on the options it gets here.
   */
  HttpServerOptions httpServerOptions();

  /**
   * How a service on Vert.x's API reaches the bytes of a Buffer with Netty: {@code --channel lean}
   * gives {@link NettyAccess.BufferBytes#VIEWS VIEWS} (no copy, Vert.x's internals),
   * {@code --channel netty} {@link NettyAccess.BufferBytes#COPIES COPIES} (Vert.x's public API only).
   */
  NettyAccess.BufferBytes bufferBytes();

  /**
   * Listens and registers the server for the drain. A {@code NetServer}'s connections are the
   * service's to age out ({@link #connectionLifetime()}): only the service knows where one message of
   * its protocol ends, so only it can close between two without losing one.
   */
  Future<NetServer> listen(NetServer server);

  /**
   * Listens, registers the server for the drain, and applies {@code --max-connection-age}: the
   * first answer on a connection past its lifetime says {@code Connection: close}, and the
   * connection closes once that answer is written. For that the runtime wraps the server's request
   * handler (set it before listening) and sets its {@code connectionHandler}; a service that needs
   * its own connection handler passes it here instead of to the server.
   */
  Future<HttpServer> listen(HttpServer server);

  /** As {@link #listen(HttpServer)}, with a connection handler of the service's own run first. */
  Future<HttpServer> listen(HttpServer server, Handler<io.vertx.core.http.HttpConnection> connectionHandler);

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
  Future<Void> listen(NetServerOptions options, ConnectionInitializer initializer);

  /**
   * Every {@code period}, on this instance's event loop, calls {@code visit} with each connection of
   * its {@link #listen(NetServerOptions, ConnectionInitializer) own-pipeline listener} that is open:
   * one sweep per event loop for what a service times out per connection (idle connections, slow
   * request heads), where a scheduled task per connection would cost an allocation and a heap insert
   * on accept and a removal on close. The visit may close the connection. Call it from
   * {@code start()}, after that listen.
   */
  void sweepConnections(Duration period, Consumer<Channel> visit);

  /**
   * The sweep period for timeouts no shorter than {@code shortestTimeout}: a quarter of it, between
   * 50 ms and 1 s, so a connection closes at most a quarter late and a long timeout costs one visit
   * per connection per second.
   */
  static Duration sweepPeriodFor(Duration shortestTimeout) {
    return Duration.ofMillis(Math.max(50, Math.min(1000, shortestTimeout.toMillis() / 4)));
  }

  /**
   * True while the runtime warms this service up, before ready: every connection accepted
   * meanwhile is warm-up traffic. See {@link #warmUpSplit}.
   */
  boolean warmingUp();

  /**
   * The runtime's split of warm-up traffic from the service's own: {@code warmUp} until the warm-up
   * before ready has ended on this instance, {@code served} from then on (at once when there is no
   * warm-up). A service counts each new connection or request in what this gives, so its meters
   * show only its own traffic; read it on this instance's event loop.
   */
  <T> Supplier<T> warmUpSplit(T served, T warmUp);

  /**
   * How long a new connection may live ({@code --max-connection-age}), jittered by up to 10% either
   * way so that connections opened together do not all close together; {@link Duration#ZERO} when
   * connections live as long as their peer wants. The runtime applies it to the HTTP servers it
   * listens with; a service with a pipeline of its own or a {@code NetServer} closes the connection
   * past it as its drain would.
   */
  Duration connectionLifetime();

  /**
   * Adds a readiness check, shown by {@code name} on {@code /health/ready} (per instance, as
   * {@code name/instance}) beside the runtime's own: the service is ready only while every check
   * completes with {@link Status#OK()}. The procedure runs on this instance's event loop, each time
   * readiness is asked, and must complete its promise within a second (vertx-health-check's timeout).
   */
  void readinessCheck(String name, Handler<Promise<Status>> procedure);

  /**
   * Shuts down, gracefully, every server this instance listened with, completing when their
   * connections have finished or {@code timeout} has passed: what {@link ServiceVerticle#drain} does
   * by default.
   */
  Future<Void> shutdownServers(Duration timeout);
}
