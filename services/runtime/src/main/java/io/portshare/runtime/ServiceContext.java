package io.portshare.runtime;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetServerOptions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/** What the runtime hands one verticle instance: its settings, its place and its meters. */
public final class ServiceContext {

  /** The option of {@link #connectionLifetime}. */
  static final String MAX_CONNECTION_AGE = "max-connection-age";

  /** Kernel caps this at net.core.somaxconn; one-connection-per-request load needs a deep queue. */
  static final int ACCEPT_BACKLOG = 4096;

  private final String serviceName;
  private final Settings settings;
  private final ScalingMode mode;
  private final int instance;
  private final int instances;
  private final int port;
  private final MeterRegistry registry;
  private final Counter accepted;
  private final Counter warmUpAccepted;
  /** True from start until the runtime's warm-up has ended: connections meanwhile are its own. */
  private volatile boolean warmingUp;
  private final LongAdder open;
  private final List<Object> servers = new CopyOnWriteArrayList<>();
  private volatile int actualPort = -1;

  ServiceContext(String serviceName, Settings settings, ScalingMode mode, int instance, int instances, int port,
      MeterRegistry registry, LongAdder open, boolean warmingUp) {
    this.serviceName = serviceName;
    this.settings = settings;
    this.mode = mode;
    this.instance = instance;
    this.instances = instances;
    this.port = port;
    this.registry = registry;
    this.open = open;
    this.warmingUp = warmingUp;
    this.accepted = Counter.builder("portshare.connections.accepted")
        .description("Connections accepted, per event loop (shows how modes balance)")
        .tag("service", serviceName)
        .tag("loop", Integer.toString(instance))
        .register(registry);
    this.warmUpAccepted = Counter.builder("portshare.warmup.connections")
        .description("Connections of the warm-up before ready, per event loop (not in connections.accepted)")
        .tag("service", serviceName)
        .tag("loop", Integer.toString(instance))
        .register(registry);
  }

  public String serviceName() {
    return serviceName;
  }

  public Settings settings() {
    return settings;
  }

  public ScalingMode mode() {
    return mode;
  }

  /** This instance's index, 0..instances-1; also its event loop's label in metrics. */
  public int instance() {
    return instance;
  }

  public int instances() {
    return instances;
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

  /** Options for an HTTP server on the service port, with the socket settings the mode needs. */
  public HttpServerOptions httpServerOptions() {
    HttpServerOptions o = new HttpServerOptions();
    applySocketOptions(o);
    return o;
  }

  private void applySocketOptions(NetServerOptions o) {
    o.setHost(settings.getString("host"))
        .setPort(port)
        .setReuseAddress(true)
        .setReusePort(mode.socketPerInstance())
        .setTcpNoDelay(true)
        .setAcceptBacklog(ACCEPT_BACKLOG);
  }

  /** Listens and registers the server for drain. */
  public Future<NetServer> listen(NetServer server) {
    servers.add(server);
    return server.listen().onSuccess(s -> actualPort = s.actualPort());
  }

  /** Listens and registers the server for drain. */
  public Future<HttpServer> listen(HttpServer server) {
    servers.add(server);
    return server.listen().onSuccess(s -> actualPort = s.actualPort());
  }

  /**
   * True while the runtime warms this service up, before ready: every connection accepted
   * meanwhile is warm-up traffic. A service that counts requests counts these apart from its own
   * meters and switches back in {@link ServiceVerticle#warmedUp()}.
   */
  public boolean warmingUp() {
    return warmingUp;
  }

  /** Count a new connection; call {@link #connectionClosed()} when it closes. */
  public void connectionOpened() {
    (warmingUp ? warmUpAccepted : accepted).increment();
    open.increment();
  }

  public void connectionClosed() {
    open.decrement();
  }

  /**
   * How long a new connection may live ({@code --max-connection-age}), jittered by up to 10% either
   * way so that connections opened together do not all close together; {@link Duration#ZERO} when
   * connections live as long as their peer wants. Past it, a service closes the connection as its
   * drain would (RPC) or answers the next request with {@code Connection: close} (HTTP).
   */
  public Duration connectionLifetime() {
    Duration age = settings.getDuration(MAX_CONNECTION_AGE);
    if (age.isZero()) {
      return Duration.ZERO;
    }
    double jitter = 0.9 + 0.2 * ThreadLocalRandom.current().nextDouble();
    return Duration.ofNanos(Math.max(1, (long) (age.toNanos() * jitter)));
  }

  void warmUpEnded() {
    warmingUp = false;
  }

  /** Warm-up connections this instance has accepted. */
  long warmUpConnections() {
    return (long) warmUpAccepted.count();
  }

  int actualPort() {
    return actualPort;
  }

  Future<Void> shutdownServers(Duration timeout) {
    List<Future<Void>> all = new java.util.ArrayList<>();
    for (Object s : servers) {
      if (s instanceof NetServer) {
        all.add(((NetServer) s).shutdown(timeout.toMillis(), TimeUnit.MILLISECONDS));
      } else {
        all.add(((HttpServer) s).shutdown(timeout.toMillis(), TimeUnit.MILLISECONDS));
      }
    }
    return Future.join(all).mapEmpty();
  }
}
